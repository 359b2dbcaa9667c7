package io.hami.e2e.mixed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hami.controlplane.ManagedProcess;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.DeployFiles;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.testing.PatientTimeout;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client-go program that is not ours, upstream HAMi's scheduler, on the lab's embedded API server: its informers
 * list once and then follow chunked HTTP watches, so a node added later reaches its filter through a watch event, not
 * through a re-list after a refused watch (what client-go did while the server spoke WebSocket only).
 */
@UpstreamHami.Required
@PatientTimeout(value = 5, unit = TimeUnit.MINUTES)
class UpstreamOnEmbeddedApiServerTest {
    static final CrossRun RUN = new CrossRun(
            "upstream-on-embedded-api-server", "upstream scheduler (client-go) on the embedded API server");

    @Test
    void upstreamsInformersWatchTheEmbeddedApiServer(@TempDir Path dir) throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            client.nodes()
                    .resource(Cluster.nvidia("emb-1", Cluster.gpu("GPU-emb-1", 0, 16000, "NVIDIA-A10")))
                    .create();
            Pod pod = client.pods()
                    .inNamespace("default")
                    .resource(MixedPods.gpuPod("default", "cuda", "hami-upstream-emb", 3000, 30))
                    .create();
            Path deviceConfig = Files.writeString(dir.resolve("device-config.yaml"), DeployFiles.deviceConfigYaml());
            int port = UpstreamHami.freePort();
            try (ManagedProcess upstream = UpstreamHami.scheduler(
                    "hami-upstream-emb",
                    server.writeKubeconfig(dir.resolve("kubeconfig")),
                    deviceConfig,
                    port,
                    RUN.logs(),
                    "upstream-scheduler-emb")) {
                String filter = "http://127.0.0.1:" + port + "/filter";
                RUN.step("upstream's filter passes the node it listed", () -> {
                    awaitPasses(filter, pod, "emb-1", upstream);
                    return "list nodes " + server.requests().count("list nodes") + ", watch nodes "
                            + server.requests().count("watch nodes");
                });
                long listsBefore = server.requests().count("list nodes");
                client.nodes()
                        .resource(Cluster.nvidia("emb-2", Cluster.gpu("GPU-emb-2", 0, 16000, "NVIDIA-A10")))
                        .create();
                RUN.step("a node added later reaches it through the watch, with no new list", () -> {
                    awaitPasses(filter, pod, "emb-2", upstream);
                    assertThat(server.requests().count("list nodes"))
                            .as("node lists after the second node (a refused watch makes client-go list again)")
                            .isEqualTo(listsBefore);
                    assertThat(server.requests().count("watch nodes")).isPositive();
                    return "list nodes " + server.requests().count("list nodes") + " (unchanged), watch nodes "
                            + server.requests().count("watch nodes") + ", watch pods "
                            + server.requests().count("watch pods");
                });
            } finally {
                RUN.publish();
            }
        }
    }

    /** Waits until upstream's filter, asked about {@code node} alone, passes it. */
    private static void awaitPasses(String url, Pod pod, String node, ManagedProcess upstream) {
        String body = "{\"Pod\":" + Serialization.asJson(pod) + ",\"NodeNames\":[\"" + node + "\"]}";
        HttpClient http = HttpClient.newHttpClient();
        await("upstream's filter passes " + node)
                .atMost(MixedPods.PATIENCE)
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptionsInstanceOf(IOException.class)
                .failFast("upstream's scheduler exited", () -> !upstream.isAlive())
                .until(() -> http.send(
                                HttpRequest.newBuilder(URI.create(url))
                                        .header("Content-Type", "application/json")
                                        .POST(HttpRequest.BodyPublishers.ofString(body))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body()
                        .matches("(?s).*\"NodeNames\"\\s*:\\s*\\[\\s*\"" + node + "\".*"));
    }
}
