package io.hami.lab.apiserver;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A Kubernetes field selector ({@code f=v}, {@code f==v}, {@code f!=v}, comma-joined) over the fields the real API
 * server indexes for the resource; any other field is rejected with 400, as the real server does, so code that works
 * here also works against a cluster.
 */
record FieldSelector(List<Requirement> requirements) {

    record Requirement(String field, boolean equal, String value) {

        boolean matches(JsonNode object, String absentValue) {
            String actual = valueOf(object, field);
            return (actual == null ? absentValue : actual).equals(value) == equal;
        }

        private static String valueOf(JsonNode object, String field) {
            if (field.equals("source")) {
                // An event's "source" is source.component, else its reportingComponent (the API server's rule).
                String component = valueOf(object, "source.component");
                return component == null || component.isEmpty() ? valueOf(object, "reportingComponent") : component;
            }
            JsonNode node = object;
            for (String step : field.split("\\.")) {
                node = node.path(step);
            }
            return node.isValueNode() && !node.isNull() ? node.asString() : null;
        }
    }

    private static final Map<String, String> COMMON = Map.of("metadata.name", "", "metadata.namespace", "");

    /** Per resource: the selectable fields and the value each has when absent (Go zero values). */
    private static final Map<String, Map<String, String>> BY_RESOURCE = Map.of(
            "pods",
                    Map.of(
                            "spec.nodeName",
                            "",
                            "spec.restartPolicy",
                            "",
                            "spec.schedulerName",
                            "",
                            "spec.serviceAccountName",
                            "",
                            "spec.hostNetwork",
                            "false",
                            "status.phase",
                            "",
                            "status.podIP",
                            "",
                            "status.nominatedNodeName",
                            ""),
            "nodes", Map.of("spec.unschedulable", "false"),
            "events",
                    Map.ofEntries(
                            Map.entry("involvedObject.kind", ""),
                            Map.entry("involvedObject.namespace", ""),
                            Map.entry("involvedObject.name", ""),
                            Map.entry("involvedObject.uid", ""),
                            Map.entry("involvedObject.apiVersion", ""),
                            Map.entry("involvedObject.resourceVersion", ""),
                            Map.entry("involvedObject.fieldPath", ""),
                            Map.entry("reason", ""),
                            Map.entry("reportingComponent", ""),
                            Map.entry("source", ""),
                            Map.entry("type", "")),
            "secrets", Map.of("type", ""),
            "namespaces", Map.of("status.phase", ""));

    static final FieldSelector EVERYTHING = new FieldSelector(List.of());

    boolean matches(JsonNode object, String resource) {
        return requirements.stream()
                .allMatch(requirement -> requirement.matches(object, absentValue(resource, requirement.field())));
    }

    /** Parses the {@code fieldSelector} query value for a resource (its plural, e.g. {@code pods}). */
    static FieldSelector parse(String text, String resource) {
        if (text.isBlank()) {
            return EVERYTHING;
        }
        List<Requirement> requirements = new ArrayList<>();
        for (String term : text.split(",", -1)) {
            requirements.add(requirement(term.trim(), text, resource));
        }
        return new FieldSelector(List.copyOf(requirements));
    }

    private static Requirement requirement(String term, String text, String resource) {
        int notEqual = term.indexOf("!=");
        int doubleEqual = term.indexOf("==");
        int equal = term.indexOf('=');
        Requirement requirement;
        if (notEqual > 0) {
            requirement = new Requirement(term.substring(0, notEqual), false, term.substring(notEqual + 2));
        } else if (doubleEqual > 0) {
            requirement = new Requirement(term.substring(0, doubleEqual), true, term.substring(doubleEqual + 2));
        } else if (equal > 0) {
            requirement = new Requirement(term.substring(0, equal), true, term.substring(equal + 1));
        } else {
            throw new BadRequestException("invalid selector: '" + text + "'; can't understand '" + term + "'");
        }
        if (absentValue(resource, requirement.field()) == null) {
            throw new BadRequestException("field label not supported: " + requirement.field());
        }
        return requirement;
    }

    private static String absentValue(String resource, String field) {
        String common = COMMON.get(field);
        return common != null
                ? common
                : BY_RESOURCE.getOrDefault(resource, Map.of()).get(field);
    }
}
