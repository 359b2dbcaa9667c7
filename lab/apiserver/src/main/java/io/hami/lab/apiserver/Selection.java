package io.hami.lab.apiserver;

import java.util.HashMap;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** The objects a LIST, WATCH or DELETE-collection request selects: its label selector and its field selector. */
record Selection(String resource, LabelSelector labels, FieldSelector fields) {

    static Selection of(RequestUri uri, String resource) {
        return new Selection(
                resource,
                LabelSelector.parse(uri.param("labelSelector").orElse("")),
                FieldSelector.parse(uri.param("fieldSelector").orElse(""), resource));
    }

    boolean matches(JsonNode object) {
        return labels.matches(labelsOf(object)) && fields.matches(object, resource);
    }

    boolean matches(ParsedStates.Parsed object) {
        return labels.matches(object.labels()) && fields.matches(object.json(), resource);
    }

    static Map<String, String> labelsOf(JsonNode object) {
        Map<String, String> labels = new HashMap<>();
        object.path("metadata")
                .path("labels")
                .properties()
                .forEach(label -> labels.put(label.getKey(), label.getValue().asString()));
        return labels;
    }
}
