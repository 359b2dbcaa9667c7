package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code deploy/kubernetes} through the real kubectl: kustomize builds it, {@code kubectl apply} sends every object
 * to the embedded API server, and each is read back as it was written. Skipped where kubectl is not installed
 * ({@code scripts/install-test-deps.sh} installs it).
 */
class ManifestsApplyTest {
    private static final Path KUBECTL = Path.of("/usr/bin/kubectl");

    private record Result(int exitCode, String output) {}

    private static List<ObjectNode> built;

    @BeforeAll
    static void build() throws Exception {
        assumeTrue(Files.isExecutable(KUBECTL), "kubectl is not installed at " + KUBECTL);
        Result result = kubectl(null, null, "kustomize", Manifests.KUSTOMIZATION_DIR.toString());
        assertThat(result.exitCode()).as(result.output()).isZero();
        built = Manifests.parseAll(result.output());
    }

    private static Result kubectl(Path kubeconfig, Path cache, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(KUBECTL.toString()));
        if (kubeconfig != null) {
            command.addAll(List.of(
                    "--kubeconfig", kubeconfig.toString(), "--cache-dir", cache.toString(), "--request-timeout=20s"));
        }
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish in 60 s");
        }
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }

    @Test
    void kustomizeBuildsEveryObjectOfTheListedFiles() {
        var fromFiles = Manifests.load().all().stream()
                .map(Manifests::describe)
                .sorted()
                .toList();
        assertThat(built.stream().map(Manifests::describe).sorted().toList()).isEqualTo(fromFiles);
    }

    @Test
    void everyObjectIsAKnownKindWithoutUnknownFields() {
        try (KubernetesClient client = new io.fabric8.kubernetes.client.KubernetesClientBuilder().build()) {
            for (ObjectNode doc : built) {
                HasMetadata typed = client.getKubernetesSerialization().unmarshal(doc.toString());
                assertThat(typed).as(Manifests.describe(doc)).isNotInstanceOf(GenericKubernetesResource.class);
                assertThat(UnknownFields.in(typed))
                        .as("fields Kubernetes does not define in " + Manifests.describe(doc))
                        .isEmpty();
            }
        }
    }

    @Test
    void kubectlAppliesEveryObjectAndTheServerStoresItAsWritten(@TempDir Path dir) throws Exception {
        Path manifest = Files.writeString(
                dir.resolve("hami.yaml"),
                kubectl(null, null, "kustomize", Manifests.KUSTOMIZATION_DIR.toString())
                        .output());
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), """
                    apiVersion: v1
                    kind: Config
                    clusters: [{name: lab, cluster: {server: "%s"}}]
                    contexts: [{name: lab, context: {cluster: lab, user: lab}}]
                    current-context: lab
                    users: [{name: lab, user: {}}]
                    """.formatted(server.url()));
            Path cache = dir.resolve("cache");

            Result applied = kubectl(kubeconfig, cache, "apply", "--validate=false", "-f", manifest.toString());
            assertThat(applied.exitCode()).as(applied.output()).isZero();
            assertThat(applied.output()
                            .lines()
                            .filter(l -> l.endsWith(" created"))
                            .count())
                    .as(applied.output())
                    .isEqualTo(built.size());

            for (ObjectNode doc : built) {
                HasMetadata written = client.getKubernetesSerialization().unmarshal(doc.toString());
                HasMetadata stored = client.resource(written).get();
                assertThat(stored).as(Manifests.describe(doc) + " stored").isNotNull();
                JsonNode storedJson = Manifests.YAML.readTree(
                        client.getKubernetesSerialization().asJson(stored));
                JsonNode writtenJson = Manifests.YAML.readTree(
                        client.getKubernetesSerialization().asJson(written));
                for (String field :
                        List.of("kind", "apiVersion", "spec", "data", "rules", "roleRef", "subjects", "webhooks")) {
                    assertThat(storedJson.path(field))
                            .as(Manifests.describe(doc) + " " + field)
                            .isEqualTo(writtenJson.path(field));
                }
                assertThat(storedJson.path("metadata").path("labels"))
                        .as(Manifests.describe(doc) + " labels")
                        .isEqualTo(writtenJson.path("metadata").path("labels"));
            }

            Result again = kubectl(kubeconfig, cache, "apply", "--validate=false", "-f", manifest.toString());
            assertThat(again.exitCode()).as(again.output()).isZero();
            assertThat(again.output()
                            .lines()
                            .filter(l -> l.endsWith(" unchanged"))
                            .count())
                    .as("a second apply changes nothing:\n" + again.output())
                    .isEqualTo(built.size());
        }
    }
}
