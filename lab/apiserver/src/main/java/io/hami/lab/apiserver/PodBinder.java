package io.hami.lab.apiserver;

import io.fabric8.mockwebserver.http.MockResponse;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code POST pods/{name}/binding} and {@code POST bindings}, as the API server's BindingREST does it: sets the pod's
 * {@code spec.nodeName}, copies the binding's annotations onto the pod and marks it {@code PodScheduled}; 404 for a
 * missing pod, 409 for a pod that already has a node.
 */
final class PodBinder {

    private static final Pattern SUBRESOURCE = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding");
    private static final Pattern COLLECTION = Pattern.compile("/api/v1/namespaces/([^/]+)/bindings");
    private static final int ATTEMPTS = 20;

    private final Function<String, MockResponse> get;
    private final BiFunction<String, String, MockResponse> mergePatch;

    /** {@code get} reads an object by path; {@code mergePatch} applies a JSON merge patch (path, body) to it. */
    PodBinder(Function<String, MockResponse> get, BiFunction<String, String, MockResponse> mergePatch) {
        this.get = get;
        this.mergePatch = mergePatch;
    }

    static boolean isBinding(String method, String path) {
        return method.equals("POST")
                && (SUBRESOURCE.matcher(path).matches()
                        || COLLECTION.matcher(path).matches());
    }

    MockResponse bind(String path, String body) {
        JsonNode binding;
        try {
            binding = Json.parse(body);
        } catch (JacksonException e) {
            throw new BadRequestException("the Binding body is not JSON: " + e.getOriginalMessage());
        }
        String bindingName = binding.path("metadata").path("name").asString("");
        Matcher subresource = SUBRESOURCE.matcher(path);
        Matcher collection = COLLECTION.matcher(path);
        String namespace;
        String pod;
        if (subresource.matches()) {
            namespace = subresource.group(1);
            pod = subresource.group(2);
            if (!pod.equals(bindingName)) {
                throw new BadRequestException("name in URL does not match name in Binding object");
            }
        } else if (collection.matches()) {
            namespace = collection.group(1);
            pod = bindingName;
        } else {
            throw new IllegalArgumentException("not a binding path: " + path);
        }
        String node = binding.path("target").path("name").asString("");
        String targetKind = binding.path("target").path("kind").asString("");
        if (pod.isEmpty() || node.isEmpty() || !(targetKind.isEmpty() || targetKind.equals("Node"))) {
            return Statuses.failure(
                    422,
                    "Binding \"" + pod + "\" is invalid: metadata.name and target.name are"
                            + " required and target.kind must be empty or Node");
        }
        return assign("/api/v1/namespaces/" + namespace + "/pods/" + pod, pod, node, binding.path("metadata"));
    }

    /** Reads the pod and patches it at the version it read; a concurrent writer makes it read again. */
    private MockResponse assign(String podPath, String pod, String node, JsonNode bindingMetadata) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            MockResponse current = get.apply(podPath);
            if (current.code() == 404) {
                return Statuses.failure(404, "pods \"" + pod + "\" not found");
            }
            JsonNode stored = Json.parse(Statuses.body(current));
            String assigned = stored.path("spec").path("nodeName").asString("");
            if (!assigned.isEmpty()) {
                return Statuses.failure(
                        409,
                        "Operation cannot be fulfilled on pods/binding \"" + pod + "\": pod " + pod
                                + " is already assigned to node \"" + assigned + "\"");
            }
            MockResponse patched = mergePatch.apply(podPath, Json.write(patch(stored, node, bindingMetadata)));
            if (patched.code() / 100 == 2) {
                return Statuses.success(201);
            }
            if (patched.code() != 409) {
                return patched;
            }
        }
        return Statuses.failure(409, "pod " + pod + " changed " + ATTEMPTS + " times while being bound; try again");
    }

    private static ObjectNode patch(JsonNode stored, String node, JsonNode bindingMetadata) {
        ObjectNode patch = Json.object();
        ObjectNode metadata = patch.putObject("metadata");
        metadata.put(
                "resourceVersion",
                stored.path("metadata").path("resourceVersion").asString(""));
        Optional.of(bindingMetadata.path("annotations"))
                .filter(JsonNode::isObject)
                .ifPresent(annotations -> metadata.set("annotations", annotations.deepCopy()));
        patch.putObject("spec").put("nodeName", node);
        ArrayNode conditions = patch.putObject("status").putArray("conditions");
        stored.path("status").path("conditions").values().stream()
                .filter(condition -> !condition.path("type").asString("").equals("PodScheduled"))
                .forEach(condition -> conditions.add(condition.deepCopy()));
        ObjectNode scheduled = conditions.addObject();
        scheduled.put("type", "PodScheduled");
        scheduled.put("status", "True");
        scheduled.put(
                "lastTransitionTime",
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        return patch;
    }
}
