package io.hami.kube.patch;

import java.util.Map;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON merge patches of annotations, optionally guarded by a resourceVersion so the write is a
 * compare-and-swap (the API server answers 409 when the object changed meanwhile).
 */
public final class AnnotationPatch {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private AnnotationPatch() {}

    /**
     * @param annotations values to set; a null value deletes the key
     * @param labels      labels to set (may be empty)
     * @param resourceVersion the version the object must still have, or null for an unconditional write
     */
    public static String mergePatch(
            Map<String, String> annotations, Map<String, String> labels, String resourceVersion) {
        ObjectNode root = JSON.createObjectNode();
        ObjectNode meta = root.putObject("metadata");
        ObjectNode a = meta.putObject("annotations");
        annotations.forEach((k, v) -> {
            if (v == null) {
                a.putNull(k);
            } else {
                a.put(k, v);
            }
        });
        if (!labels.isEmpty()) {
            ObjectNode l = meta.putObject("labels");
            labels.forEach(l::put);
        }
        if (resourceVersion != null) {
            meta.put("resourceVersion", resourceVersion);
        }
        return JSON.writeValueAsString(root);
    }
}
