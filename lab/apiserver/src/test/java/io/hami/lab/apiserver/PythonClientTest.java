package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Debian's Python client ({@code python3-kubernetes}, an independent implementation of the client side) lists and
 * patches through the written kubeconfig. Skipped where it is not installed ({@code scripts/install-test-deps.sh}).
 */
class PythonClientTest {

    private static final Path PYTHON = Path.of("/usr/bin/python3");

    private static final String SCRIPT = """
            import sys
            from kubernetes import client, config
            config.load_kube_config(config_file=sys.argv[1])
            v1 = client.CoreV1Api()
            print("nodes=" + ",".join(sorted(n.metadata.name for n in v1.list_node().items)))
            pods = v1.list_pod_for_all_namespaces(label_selector="app in (web)").items
            print("web-pods=" + ",".join(sorted(p.metadata.namespace + "/" + p.metadata.name for p in pods)))
            v1.patch_node("py-node", {"metadata": {"annotations": {"patched-by": "python"}}})
            v1.patch_namespaced_pod("py-web", "default", {"metadata": {"labels": {"stage": "two"}}})
            print("node-annotation=" + v1.read_node("py-node").metadata.annotations["patched-by"])
            """;

    @Test
    void listsWithSelectorsAndPatchesNodesAndPods(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(PYTHON), "no " + PYTHON);
        assumeTrue(
                run(new ProcessBuilder(PYTHON.toString(), "-c", "import kubernetes"))
                                .exitValue()
                        == 0,
                "python3-kubernetes is not installed (scripts/install-test-deps.sh installs it)");
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            client.nodes().resource(Fixtures.node("py-node")).create();
            client.pods()
                    .resource(Fixtures.pod("py-web", Map.of("app", "web", "stage", "one")))
                    .create();
            client.pods().resource(Fixtures.pod("py-db", Map.of("app", "db"))).create();
            Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
            Path script = Files.writeString(dir.resolve("client.py"), SCRIPT);

            Process python = run(new ProcessBuilder(PYTHON.toString(), script.toString(), kubeconfig.toString())
                    .redirectErrorStream(true));
            String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(python.exitValue()).as(output).isZero();
            assertThat(output).contains("nodes=py-node", "web-pods=default/py-web\n", "node-annotation=python");
            assertThat(client.nodes().withName("py-node").get().getMetadata().getAnnotations())
                    .containsEntry("patched-by", "python");
            assertThat(client.pods().withName("py-web").get().getMetadata().getLabels())
                    .containsEntry("stage", "two")
                    .containsEntry("app", "web");
        }
    }

    private static Process run(ProcessBuilder builder) throws Exception {
        Process p = builder.start();
        p.getOutputStream().close();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", builder.command()) + " did not finish in 60 s");
        }
        return p;
    }
}
