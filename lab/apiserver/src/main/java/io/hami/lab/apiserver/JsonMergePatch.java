package io.hami.lab.apiserver;

import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/** RFC 7386 JSON merge patch: objects merge member by member, {@code null} deletes a member, anything else replaces. */
final class JsonMergePatch {

    private JsonMergePatch() {}

    /** The patched copy of {@code target} (which may be {@code null}); neither argument is modified. */
    static JsonNode apply(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) {
            return patch.deepCopy();
        }
        ObjectNode result = target != null && target.isObject()
                ? (ObjectNode) target.deepCopy()
                : JsonNodeFactory.instance.objectNode();
        for (Map.Entry<String, JsonNode> member : patch.properties()) {
            if (member.getValue().isNull()) {
                result.remove(member.getKey());
            } else {
                result.set(member.getKey(), apply(result.get(member.getKey()), member.getValue()));
            }
        }
        return result;
    }

    /**
     * A strategic merge patch read as a JSON merge patch: drops the {@code $}-prefixed directives
     * ({@code $setElementOrder/...}, {@code $patch}, {@code $retainKeys}, ...) at any depth. Lists are then replaced
     * whole instead of merged by key, which is what kubectl's {@code apply} of a whole manifest needs.
     */
    static JsonNode withoutStrategicDirectives(JsonNode patch) {
        if (patch.isObject()) {
            ObjectNode result = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> member : patch.properties()) {
                if (!member.getKey().startsWith("$")) {
                    result.set(member.getKey(), withoutStrategicDirectives(member.getValue()));
                }
            }
            return result;
        }
        if (patch.isArray()) {
            var result = JsonNodeFactory.instance.arrayNode();
            patch.values().forEach(element -> result.add(withoutStrategicDirectives(element)));
            return result;
        }
        return patch.deepCopy();
    }
}
