package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.testing.Patience;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime the images ship, made here with the local JDK by the same {@code jlink-runtime.sh} the Dockerfiles
 * run, runs the real distribution ({@code cli/target}, built before this module): the scheduler image's entry point
 * serves its endpoints against the embedded API server, and {@code hami inspect} reads it.
 */
class JlinkRuntimeTest {
    private static final Path DIST = DockerfilesTest.REPOSITORY.resolve("cli/target");

    @TempDir
    static Path dir;

    private static Path java;

    @BeforeAll
    static void link() throws Exception {
        assertThat(DIST.resolve("hami.jar"))
                .as("the distribution, built by ./mvnw -pl cli -am package")
                .exists();
        Path runtime = dir.resolve("jre");
        String path = Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH");
        var process = new ProcessBuilder(
                        "sh",
                        DockerfilesTest.DOCKER.resolve("jlink-runtime.sh").toString(),
                        DIST.toString(),
                        runtime.toString())
                .redirectErrorStream(true);
        process.environment().put("PATH", path);
        Process p = process.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        java = runtime.resolve("bin/java");
        assertThat(runtime.resolve("jmods")).as("a runtime, not a JDK").doesNotExist();
        assertThat(runtime.resolve("bin/javac")).doesNotExist();
    }

    /** The scheduler image's ENTRYPOINT with the image's paths replaced by this machine's. */
    private static List<String> entrypoint() {
        var command = new ArrayList<String>();
        for (String word : Dockerfile.read(DockerfilesTest.DOCKER.resolve("scheduler.Dockerfile"))
                .entrypoint()) {
            command.add(word.replace("/opt/hami/jre/bin/java", java.toString())
                    .replace("/opt/hami/hami.jar", DIST.resolve("hami.jar").toString()));
        }
        return command;
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void theSchedulerImageEntryPointServesItsEndpoints() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("node-1")
                            .endMetadata()
                            .build())
                    .create();
            Path kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
            int http = freePort();
            int metrics = freePort();
            var command = entrypoint();
            command.addAll(List.of(
                    "--kubeconfig",
                    kubeconfig.toString(),
                    "--http-bind",
                    "127.0.0.1:" + http,
                    "--metrics-bind-address",
                    "127.0.0.1:" + metrics));
            Path log = dir.resolve("scheduler.log");
            Process scheduler = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try (var client2 = HttpClient.newHttpClient()) {
                await().atMost(Patience.seconds(60))
                        .pollInterval(Duration.ofMillis(500))
                        .failFast("the scheduler exited: " + log, () -> !scheduler.isAlive())
                        .until(() -> status(client2, "http://127.0.0.1:" + http + "/readyz") == 200);
                var scrape = client2.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metrics + "/metrics"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(scrape.body()).contains("hami_build_info");
            } finally {
                scheduler.destroy();
                scheduler.waitFor(20, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void inspectRunsOnTheRuntime() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("node-1")
                            .endMetadata()
                            .build())
                    .create();
            Path kubeconfig = server.writeKubeconfig(dir.resolve("inspect-kubeconfig"));
            var command = new ArrayList<>(entrypoint().subList(0, entrypoint().indexOf("scheduler")));
            command.addAll(List.of("inspect", "nodes", "--kubeconfig", kubeconfig.toString(), "-o", "json"));
            Process p = new ProcessBuilder(command).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(err).isZero();
            assertThat(out).contains("\"name\" : \"node-1\"");
        }
    }

    private static int status(HttpClient client, String url) {
        try {
            return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }
}
