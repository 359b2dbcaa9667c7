package io.hami.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The manifests of {@code deploy/kubernetes}, as the files listed in its kustomization.yaml hold them. */
final class Manifests {
    static final YAMLMapper YAML = YAMLMapper.builder().build();
    /** The deploy module's directory: Maven runs the tests there. */
    static final Path MODULE = Path.of("").toAbsolutePath();

    static final Path KUSTOMIZATION_DIR = MODULE.resolve("kubernetes");
    static final String COMPONENT_LABEL = "app.kubernetes.io/component";

    private final List<ObjectNode> objects;

    private Manifests(List<ObjectNode> objects) {
        this.objects = List.copyOf(objects);
    }

    /** Every object of every file that kustomization.yaml lists, in order. */
    static Manifests load() {
        JsonNode kustomization = readTree(KUSTOMIZATION_DIR.resolve("kustomization.yaml"));
        var objects = new ArrayList<ObjectNode>();
        for (JsonNode file : kustomization.path("resources")) {
            objects.addAll(parseAll(read(KUSTOMIZATION_DIR.resolve(file.asString()))));
        }
        return new Manifests(objects);
    }

    /** The objects of a multi-document YAML text; empty documents are skipped. */
    static List<ObjectNode> parseAll(String yaml) {
        var out = new ArrayList<ObjectNode>();
        try (var docs = YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml)) {
            while (docs.hasNextValue()) {
                JsonNode doc = docs.nextValue();
                if (doc != null && doc.isObject()) {
                    out.add((ObjectNode) doc);
                }
            }
        }
        return out;
    }

    List<ObjectNode> all() {
        return objects;
    }

    List<ObjectNode> ofKind(String kind) {
        return objects.stream()
                .filter(o -> o.path("kind").asString().equals(kind))
                .toList();
    }

    /** The object of {@code kind} named {@code name}. */
    ObjectNode get(String kind, String name) {
        return find(kind, name)
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in deploy/kubernetes"));
    }

    Optional<ObjectNode> find(String kind, String name) {
        return ofKind(kind).stream().filter(o -> name(o).equals(name)).findFirst();
    }

    static String name(JsonNode o) {
        return o.path("metadata").path("name").asString();
    }

    static String namespace(JsonNode o) {
        return o.path("metadata").path("namespace").asString();
    }

    static String component(JsonNode o) {
        return o.path("metadata").path("labels").path(COMPONENT_LABEL).asString();
    }

    /** {@code Kind namespace/name}, for messages. */
    static String describe(JsonNode o) {
        String ns = namespace(o);
        return o.path("kind").asString() + " " + (ns.isEmpty() ? "" : ns + "/") + name(o);
    }

    /** The container named {@code container} of a workload (Deployment, DaemonSet, Job). */
    static JsonNode container(JsonNode workload, String container) {
        for (JsonNode c : workload.path("spec").path("template").path("spec").path("containers")) {
            if (c.path("name").asString().equals(container)) {
                return c;
            }
        }
        throw new AssertionError(describe(workload) + " has no container " + container);
    }

    /** The value of {@code --flag=value} in a container's command or args. */
    static Optional<String> flag(JsonNode container, String flag) {
        for (String list : List.of("command", "args")) {
            for (JsonNode arg : container.path(list)) {
                if (arg.asString().startsWith(flag + "=")) {
                    return Optional.of(arg.asString().substring(flag.length() + 1));
                }
            }
        }
        return Optional.empty();
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    static JsonNode readTree(Path file) {
        return YAML.readTree(read(file));
    }
}
