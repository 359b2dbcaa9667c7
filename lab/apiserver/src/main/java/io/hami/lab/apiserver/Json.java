package io.hami.lab.apiserver;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** The one JSON mapper of this module: trees in, text out. */
final class Json {

    private static final JsonMapper MAPPER = JsonMapper.shared();

    private Json() {}

    static JsonNode parse(String text) {
        return MAPPER.readTree(text);
    }

    static String write(JsonNode node) {
        return MAPPER.writeValueAsString(node);
    }

    static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    static ArrayNode array() {
        return MAPPER.createArrayNode();
    }
}
