package io.hami.scheduler.cluster;

import static io.hami.scheduler.SchedulerFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.metrics.Scrape;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An object the client's model cannot read (stored raw in the embedded API server: the real one validates types, but
 * a newer server or a field our model types differently can send what we cannot decode) never stops the pod watch.
 */
class UndecodablePodTest {
    EmbeddedApiServer server = EmbeddedApiServer.start();
    KubernetesClient client = server.newClient();
    PrometheusRegistry registry = new PrometheusRegistry();
    /** The scheduler's own client: it outlives a restart of the server on the same port. */
    KubernetesClient appClient = server.newClient();

    SchedulerApp app;

    @AfterEach
    void stop() {
        if (app != null) {
            app.close();
        }
        appClient.close();
        client.close();
        server.close();
    }

    void node(String name) {
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToAnnotations(
                                "hami.io/node-nvidia-register",
                                JsonRegisterCodec.encode(List.of(gpu("GPU-" + name, 0, 8000))))
                        .endMetadata()
                        .withNewStatus()
                        .addToAllocatable("nvidia.com/gpu", new Quantity("10"))
                        .endStatus()
                        .build())
                .create();
    }

    /** A running pod on {@code node} holding 3000 MiB of its GPU. */
    void runningPod(String name, String node) {
        client.pods()
                .inNamespace("default")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withNamespace("default")
                        .withName(name)
                        .addToAnnotations("hami.io/vgpu-devices-allocated", "GPU-" + node + ",NVIDIA,3000,30:;")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .addNewContainer()
                        .withName("c")
                        .withImage("busybox")
                        .endContainer()
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .endStatus()
                        .build())
                .create();
    }

    /** Memory used on the node's GPU, or -1 before the node is indexed. */
    static long usedMem(UsageIndex index, String node) {
        return index.snapshot(node)
                .map(s -> s.view().devicesOf("NVIDIA"))
                .filter(l -> !l.isEmpty())
                .map(l -> (long) l.getFirst().usedmem())
                .orElse(-1L);
    }

    String readyz() throws Exception {
        var r = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(
                                        "http://127.0.0.1:" + app.address().getPort() + "/readyz"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    void start() throws Exception {
        app = SchedulerApp.start(
                appClient,
                SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, Duration.ofMinutes(5)),
                registry,
                Clock.systemUTC());
    }

    @Test
    void anUndecodablePodIsSkippedCountedAndFailsItsNodeWhileTheWatchGoesOn() throws Exception {
        node("n1");
        node("n2");
        runningPod("good", "n1");
        runningPod("victim", "n2");
        start();
        await().atMost(Patience.seconds(30))
                .until(() -> usedMem(app.index(), "n1") == 3000 && usedMem(app.index(), "n2") == 3000);

        // A type our model cannot take: containers as a string.
        client.genericKubernetesResources("v1", "Pod")
                .inNamespace("default")
                .withName("victim")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"containers\":\"x\"}}");
        await().atMost(Patience.seconds(30))
                .until(() ->
                        !app.index().snapshot("n2").orElseThrow().failClosed().isEmpty());
        assertThat(app.index().snapshot("n2").orElseThrow().failClosed().getFirst())
                .contains("default/victim")
                .contains("spec.containers")
                .contains("expected a list, got a string")
                .doesNotContain("io.fabric8")
                .doesNotContain("java.");
        assertThat(Scrape.samples(registry, "hami_undecodable_objects_total"))
                .containsExactly("hami_undecodable_objects_total{resource=\"pods\"} 1.0");

        // The watch still sees pods leave and arrive.
        client.pods().inNamespace("default").withName("good").delete();
        await().atMost(Patience.seconds(30)).until(() -> usedMem(app.index(), "n1") == 0);
        runningPod("later", "n1");
        await().atMost(Patience.seconds(30)).until(() -> usedMem(app.index(), "n1") == 3000);
        assertThat(app.index().snapshot("n1").orElseThrow().failClosed()).isEmpty();
        assertThat(readyz()).isEqualTo("200 ok");

        // Deleting the unreadable pod frees its node.
        // (a plain HTTP DELETE: fabric8 would try to decode the deleted object it answers with)
        var deleted = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(server.url() + "/api/v1/namespaces/default/pods/victim"))
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(deleted.statusCode()).isEqualTo(200);
        await().atMost(Patience.seconds(30))
                .until(() ->
                        app.index().snapshot("n2").orElseThrow().failClosed().isEmpty());
        assertThat(usedMem(app.index(), "n2")).isZero();
    }

    @Test
    void anUndecodablePodPresentAtStartDoesNotKeepTheSchedulerFromSyncing() throws Exception {
        node("n1");
        runningPod("victim", "n1");
        client.genericKubernetesResources("v1", "Pod")
                .inNamespace("default")
                .withName("victim")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"initContainers\":{\"a\":1}}}");
        runningPod("good", "n1");
        start();
        assertThat(readyz()).isEqualTo("200 ok");
        await().atMost(Patience.seconds(30))
                .until(() -> usedMem(app.index(), "n1") == 3000
                        && !app.index()
                                .snapshot("n1")
                                .orElseThrow()
                                .failClosed()
                                .isEmpty());
        assertThat(app.index().snapshot("n1").orElseThrow().failClosed())
                .singleElement()
                .asString()
                .contains("default/victim")
                .contains("spec.initContainers");
    }

    @Test
    void readyzIsFalseWhileTheWatchIsDownAndTrueOnceItIsBack() throws Exception {
        node("n1");
        start();
        assertThat(readyz()).isEqualTo("200 ok");
        int port = server.port();
        client.close();
        server.close();
        await().atMost(Patience.seconds(30)).until(() -> readyz().startsWith("503"));
        assertThat(readyz()).contains("watch");
        server = EmbeddedApiServer.start(port);
        client = server.newClient();
        await().atMost(Patience.seconds(30)).until(() -> readyz().equals("200 ok"));
    }

    @Test
    void anUndecodableNodeFailsClosedUntilItCanBeReadAgain() throws Exception {
        node("n1");
        start();
        await().atMost(Patience.seconds(30)).until(() -> usedMem(app.index(), "n1") == 0);
        client.genericKubernetesResources("v1", "Node")
                .withName("n1")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"allocatable\":\"x\"}}");
        await().atMost(Patience.seconds(30))
                .until(() ->
                        !app.index().snapshot("n1").orElseThrow().failClosed().isEmpty());
        assertThat(app.index().snapshot("n1").orElseThrow().failClosed())
                .singleElement()
                .asString()
                .isEqualTo(
                        "node inventory unreadable: node n1 cannot be read: field status.allocatable: expected an object, got a string");
        assertThat(Scrape.samples(registry, "hami_undecodable_objects_total"))
                .containsExactly("hami_undecodable_objects_total{resource=\"nodes\"} 1.0");

        client.genericKubernetesResources("v1", "Node")
                .withName("n1")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        "{\"status\":{\"allocatable\":{\"nvidia.com/gpu\":\"10\"}}}");
        await().atMost(Patience.seconds(30))
                .until(() ->
                        app.index().snapshot("n1").orElseThrow().failClosed().isEmpty());
        assertThat(usedMem(app.index(), "n1")).isZero();
    }
}
