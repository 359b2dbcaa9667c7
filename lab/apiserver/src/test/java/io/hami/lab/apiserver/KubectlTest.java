package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl, through the written kubeconfig: get, get -w (a chunked HTTP watch), apply (create, then update
 * through the strategic merge patch fallback) and delete. Skipped where kubectl is not installed.
 */
class KubectlTest {

    private static final Path KUBECTL = Path.of("/usr/bin/kubectl");

    private static EmbeddedApiServer server;
    private static KubernetesClient client;
    private static Path kubeconfig;
    private static Path cache;

    record Result(int exitCode, String output) {}

    @BeforeAll
    static void start(@TempDir Path dir) {
        assumeTrue(Files.isExecutable(KUBECTL), "kubectl is not installed at " + KUBECTL);
        server = EmbeddedApiServer.start();
        client = server.newClient();
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
        cache = dir.resolve("cache"); // kubectl would otherwise write its discovery cache under ~/.kube
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            client.close();
            server.close();
        }
    }

    private static Result kubectl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                KUBECTL.toString(),
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                cache.toString(),
                "--request-timeout=10s"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        process.getOutputStream().close();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("kubectl " + String.join(" ", args) + " did not finish in 30 s");
        }
        return new Result(
                process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void getNodesAndPodsInAllNamespaces() throws Exception {
        client.nodes().resource(Fixtures.node("kubectl-node")).create();
        client.pods().resource(Fixtures.pod("kubectl-pod")).create();

        Result nodes = kubectl("get", "nodes");
        Result pods = kubectl("get", "pods", "-A");

        assertThat(nodes.exitCode()).as(nodes.output()).isZero();
        assertThat(nodes.output()).contains("kubectl-node");
        assertThat(pods.exitCode()).as(pods.output()).isZero();
        assertThat(pods.output()).contains("default", "kubectl-pod");
    }

    @Test
    void getWatchPrintsTheStateThenChangesAsTheyHappen() throws Exception {
        client.pods().resource(Fixtures.pod("watched-1")).create();
        Process watch = new ProcessBuilder(
                        KUBECTL.toString(),
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--cache-dir",
                        cache.toString(),
                        "get",
                        "pods",
                        "--watch",
                        "--output-watch-events")
                .redirectErrorStream(true)
                .start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (var out = watch.inputReader(StandardCharsets.UTF_8)) {
                out.lines().forEach(lines::add);
            } catch (IOException | UncheckedIOException e) {
                // the process was stopped
            }
        });
        try {
            assertThat(lineWith(lines, "watched-1")).startsWith("ADDED");
            client.pods().resource(Fixtures.pod("watched-2")).create();
            assertThat(lineWith(lines, "watched-2")).startsWith("ADDED");
        } finally {
            watch.destroy();
        }
    }

    /** The next line naming {@code name}, within a generous limit; the lines before it are kubectl's headers. */
    private static String lineWith(BlockingQueue<String> lines, String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        List<String> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line != null && line.contains(name)) {
                return line;
            }
            seen.add(line);
        }
        throw new AssertionError("kubectl get -w printed no line with " + name + " in 20 s; it printed " + seen);
    }

    @Test
    void applyCreatesThenUpdatesAndDeleteRemoves(@TempDir Path dir) throws Exception {
        Path manifest = dir.resolve("pod.yaml");
        Files.writeString(manifest, """
                apiVersion: v1
                kind: Pod
                metadata:
                  name: applied
                  namespace: default
                  labels: {stage: one}
                spec:
                  containers:
                  - name: main
                    image: busybox
                """);

        Result created = kubectl("apply", "--validate=false", "-f", manifest.toString());
        assertThat(created.exitCode()).as(created.output()).isZero();
        assertThat(client.pods().withName("applied").get().getMetadata().getLabels())
                .containsEntry("stage", "one");

        Files.writeString(manifest, Files.readString(manifest).replace("stage: one", "stage: two"));
        Result updated = kubectl("apply", "--validate=false", "-f", manifest.toString());
        assertThat(updated.exitCode()).as(updated.output()).isZero();
        assertThat(client.pods().withName("applied").get().getMetadata().getLabels())
                .containsEntry("stage", "two");

        Result deleted = kubectl("delete", "pod", "applied");
        assertThat(deleted.exitCode()).as(deleted.output()).isZero();
        assertThat(client.pods().withName("applied").get()).isNull();
    }
}
