package io.hami.e2e.support;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The files of {@code deploy/kubernetes} as the repository holds them, found by walking up from the module's folder
 * to the one that holds {@code deploy/kubernetes}: the manifests the tests apply to the real control plane.
 */
public final class DeployFiles {
    public static final YAMLMapper YAML = YAMLMapper.builder().build();
    /** The repository's root: the first folder upwards from the working directory holding {@code deploy/kubernetes}. */
    public static final Path ROOT = findRoot(Path.of("").toAbsolutePath());

    public static final Path KUSTOMIZATION_DIR = ROOT.resolve("deploy/kubernetes");

    private DeployFiles() {}

    private static Path findRoot(Path from) {
        for (Path p = from; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("deploy/kubernetes"))) {
                return p;
            }
        }
        throw new IllegalStateException("no deploy/kubernetes above " + from);
    }

    /** The objects of one file under {@code deploy/kubernetes} ({@code scheduler/rbac.yaml}), in order. */
    public static List<ObjectNode> load(String relative) {
        return parseAll(read(KUSTOMIZATION_DIR.resolve(relative)));
    }

    /**
     * Server-side applies every object of one file as {@code fieldManager} (conflicts forced: the manifests are the
     * truth); returns what the server stored.
     */
    public static List<HasMetadata> apply(KubernetesClient client, String relative, String fieldManager) {
        var out = new ArrayList<HasMetadata>();
        for (ObjectNode doc : load(relative)) {
            HasMetadata object = client.getKubernetesSerialization().unmarshal(doc.toString());
            out.add(client.resource(object)
                    .fieldManager(fieldManager)
                    .forceConflicts()
                    .serverSideApply());
        }
        return out;
    }

    /** The files kustomization.yaml lists, relative to {@code deploy/kubernetes}. */
    public static List<String> kustomizationResources() {
        var out = new ArrayList<String>();
        YAML.readTree(read(KUSTOMIZATION_DIR.resolve("kustomization.yaml")))
                .path("resources")
                .forEach(r -> out.add(r.asString()));
        return out;
    }

    /** Every object of every file kustomization.yaml lists. */
    public static List<ObjectNode> all() {
        var out = new ArrayList<ObjectNode>();
        kustomizationResources().forEach(f -> out.addAll(load(f)));
        return out;
    }

    /** The objects of a multi-document YAML (or JSON) text; empty documents are skipped. */
    public static List<ObjectNode> parseAll(String yaml) {
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

    public static ObjectNode find(List<ObjectNode> objects, String kind, String name) {
        return objects.stream()
                .filter(o -> o.path("kind").asString().equals(kind) && name(o).equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in deploy/kubernetes"));
    }

    /** The device configuration file of ConfigMap {@code hami-device-config}, as the pods mount it. */
    public static String deviceConfigYaml() {
        return find(load("device-config.yaml"), "ConfigMap", "hami-device-config")
                .path("data")
                .path("device-config.yaml")
                .asString();
    }

    public static String name(JsonNode o) {
        return o.path("metadata").path("name").asString();
    }

    public static String namespace(JsonNode o) {
        return o.path("metadata").path("namespace").asString();
    }

    /** {@code Kind namespace/name}, for messages. */
    public static String describe(JsonNode o) {
        String ns = namespace(o);
        return o.path("kind").asString() + " " + (ns.isEmpty() ? "" : ns + "/") + name(o);
    }

    /** The container named {@code container} of a workload. */
    public static JsonNode container(JsonNode workload, String container) {
        for (JsonNode c : workload.path("spec").path("template").path("spec").path("containers")) {
            if (c.path("name").asString().equals(container)) {
                return c;
            }
        }
        throw new AssertionError(describe(workload) + " has no container " + container);
    }

    /** The value of {@code --flag=value} in a container's command or args. */
    public static Optional<String> flag(JsonNode container, String flag) {
        for (String list : List.of("command", "args")) {
            for (JsonNode arg : container.path(list)) {
                if (arg.asString().startsWith(flag + "=")) {
                    return Optional.of(arg.asString().substring(flag.length() + 1));
                }
            }
        }
        return Optional.empty();
    }

    /** A Go-style duration of one unit ({@code 5m}, {@code 30s}, {@code 1h}), as the scheduler's flags take it. */
    public static Duration duration(String go) {
        return Duration.parse(
                (go.endsWith("h") || go.endsWith("m") || go.endsWith("s") ? "PT" : "") + go.toUpperCase(Locale.ROOT));
    }

    public static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
