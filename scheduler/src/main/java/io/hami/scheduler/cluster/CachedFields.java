package io.hami.scheduler.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * What the scheduler reads from a cached pod or node; the rest (managedFields, env, volumes, commands, conditions,
 * container statuses, node images and addresses) is dropped before decoding, so it is neither decoded nor kept.
 * Readers of cached objects: the usage index ({@code PodUsage}: annotations, phase, nodeName, init container count and
 * statuses), {@code PodRequest} (container names and resources), the node lock's cached reads and the bind
 * (annotations, labels, nodeName, phase, deletionTimestamp, uid, resourceVersion), discovery and the handshake
 * (node annotations, capacity, allocatable). A kept field is passed on as it came, so a field our model cannot read
 * still makes the object undecodable, with the same message.
 */
final class CachedFields {
    private static final List<String> POD_SPEC = List.of("nodeName", "schedulerName", "containers", "initContainers");
    private static final List<String> POD_STATUS = List.of("phase", "initContainerStatuses");
    private static final List<String> CONTAINER = List.of("name", "resources");
    private static final List<String> CONTAINER_STATUS = List.of("name", "state");
    private static final List<String> NODE_STATUS = List.of("capacity", "allocatable");

    /** Keeps whole objects, as before they were cut: only for the memory benchmark's "before" figure. */
    private static final boolean KEEP_WHOLE = Boolean.getBoolean("hami.bench.wholeObjects");

    private CachedFields() {}

    /** {@code cut} as informers apply it: null (whole objects) under the memory benchmark's "before" switch. */
    static UnaryOperator<GenericKubernetesResource> applied(UnaryOperator<GenericKubernetesResource> cut) {
        return KEEP_WHOLE ? null : cut;
    }

    /** The metadata kept of a pod or node: identity, version, labels, annotations, deletion. */
    static ObjectMeta metadata(ObjectMeta m) {
        var slim = new ObjectMeta();
        if (m == null) {
            return slim;
        }
        slim.setName(m.getName());
        slim.setNamespace(m.getNamespace());
        slim.setUid(m.getUid());
        slim.setResourceVersion(m.getResourceVersion());
        slim.setLabels(m.getLabels());
        slim.setAnnotations(m.getAnnotations());
        slim.setDeletionTimestamp(m.getDeletionTimestamp());
        return slim;
    }

    /** {@code raw}'s pod fields that are read, without metadata (see {@link #metadata}). */
    static GenericKubernetesResource pod(GenericKubernetesResource raw) {
        var out = body(raw);
        var props = raw.getAdditionalProperties();
        if (props.get("spec") instanceof Map<?, ?> spec) {
            var s = pick(spec, POD_SPEC);
            s.computeIfPresent("containers", (k, v) -> each(v, CONTAINER));
            s.computeIfPresent("initContainers", (k, v) -> each(v, CONTAINER));
            out.setAdditionalProperty("spec", s);
        } else if (props.containsKey("spec")) {
            out.setAdditionalProperty("spec", props.get("spec"));
        }
        if (props.get("status") instanceof Map<?, ?> status) {
            var s = pick(status, POD_STATUS);
            s.computeIfPresent("initContainerStatuses", (k, v) -> each(v, CONTAINER_STATUS));
            out.setAdditionalProperty("status", s);
        } else if (props.containsKey("status")) {
            out.setAdditionalProperty("status", props.get("status"));
        }
        return out;
    }

    /** {@code raw}'s node fields that are read, without metadata: no spec, and of the status capacity and allocatable. */
    static GenericKubernetesResource node(GenericKubernetesResource raw) {
        var out = body(raw);
        var props = raw.getAdditionalProperties();
        if (props.get("status") instanceof Map<?, ?> status) {
            out.setAdditionalProperty("status", pick(status, NODE_STATUS));
        } else if (props.containsKey("status")) {
            out.setAdditionalProperty("status", props.get("status"));
        }
        return out;
    }

    private static GenericKubernetesResource body(GenericKubernetesResource raw) {
        var out = new GenericKubernetesResource();
        out.setApiVersion(raw.getApiVersion());
        out.setKind(raw.getKind());
        return out;
    }

    private static Map<String, Object> pick(Map<?, ?> from, List<String> keys) {
        var out = new LinkedHashMap<String, Object>();
        for (String k : keys) {
            if (from.containsKey(k)) {
                out.put(k, from.get(k));
            }
        }
        return out;
    }

    /** Each object of the list {@code value} cut to {@code keys}; anything else as it came. */
    private static Object each(Object value, List<String> keys) {
        if (!(value instanceof List<?> list)) {
            return value;
        }
        var out = new ArrayList<>(list.size());
        for (Object item : list) {
            out.add(item instanceof Map<?, ?> m ? pick(m, keys) : item);
        }
        return out;
    }
}
