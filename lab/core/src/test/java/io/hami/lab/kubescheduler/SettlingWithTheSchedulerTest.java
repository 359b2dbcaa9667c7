package io.hami.lab.kubescheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.lab.metrics.Latencies;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.testing.Patience;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The settle rule on the simulated kube-scheduler itself, against the embedded API server and an extender that fits
 * the pod nowhere: node-lock writes leave the pod waiting and the scheduler idle; a release leaves it busy until the
 * pod has been tried again.
 */
class SettlingWithTheSchedulerTest {
    private static final String SCHEDULER = "hami-scheduler";
    private static final String NODE = "n1";
    private static final String UNFIT =
            "{\"NodeNames\":[],\"FailedNodes\":{\"" + NODE + "\":\"CardInsufficientMemory\"},\"Error\":\"\"}";

    private final AtomicInteger filters = new AtomicInteger();
    private EmbeddedApiServer api;
    private KubernetesClient client;
    private HttpServer extender;
    private SimulatedScheduler scheduler;

    @BeforeEach
    void start() throws Exception {
        api = EmbeddedApiServer.start();
        client = api.newClient();
        extender = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        extender.createContext("/filter", exchange -> {
            exchange.getRequestBody().readAllBytes();
            filters.incrementAndGet();
            byte[] body = UNFIT.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (var out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        extender.start();
        URI url = URI.create("http://127.0.0.1:" + extender.getAddress().getPort());
        client.nodes().resource(node()).create();
        // A pod already bound there: its end is the release.
        client.pods().resource(pod("holder", NODE, "other-scheduler")).create();
        scheduler = new SimulatedScheduler(
                api.newClient(),
                SCHEDULER,
                new ExtenderClient(client.getKubernetesSerialization(), () -> List.of(url), new Latencies()),
                DeviceBackends.load(DeviceConfig.DEFAULTS),
                4,
                new SplittableRandom(1));
    }

    @AfterEach
    void stop() {
        if (scheduler != null) {
            scheduler.close();
        }
        if (extender != null) {
            extender.stop(0);
        }
        if (client != null) {
            client.close();
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void aPodNoNodeTakesLeavesTheSchedulerIdleThroughLockWritesAndIsTriedAgainAfterARelease() {
        client.pods().resource(pod("big", null, SCHEDULER)).create();
        await().atMost(Patience.seconds(20)).until(() -> filters.get() == 1 && scheduler.busy() == 0);

        // A node-lock write frees nothing: the pod stays where it is (its own Unschedulable condition neither).
        lockNode();
        await().atMost(Patience.seconds(5)).until(() -> {
            Node n = client.nodes().withName(NODE).get();
            return n.getMetadata().getAnnotations().containsKey("hami.io/mutex.lock");
        });
        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(3))
                .until(() -> scheduler.busy() == 0 && filters.get() == 1);

        // A release: busy through its 1 s backoff, until it has been tried again.
        client.pods().withName("holder").withGracePeriod(0).delete();
        await().atMost(Patience.seconds(5)).until(() -> scheduler.busy() == 1);
        await().atMost(Patience.seconds(20)).until(() -> filters.get() == 2 && scheduler.busy() == 0);
        assertThat(scheduler.bound()).isZero();
    }

    private void lockNode() {
        client.nodes()
                .withName(NODE)
                .edit(n -> new NodeBuilder(n)
                        .editMetadata()
                        .addToAnnotations("hami.io/mutex.lock", "2026-12-01T05:00:00Z,default,someone")
                        .endMetadata()
                        .build());
    }

    private static Node node() {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .addToAnnotations("hami.io/node-nvidia-register", "registered")
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity("1"))
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build();
    }

    private static Pod pod(String name, String node, String schedulerName) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .endMetadata()
                .withNewSpec()
                .withSchedulerName(schedulerName)
                .withNodeName(node)
                .addNewContainer()
                .withName("c")
                .withImage("none")
                .withNewResources()
                .withLimits(Map.of("nvidia.com/gpu", new Quantity("1"), "nvidia.com/gpumem", new Quantity("100000")))
                .endResources()
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase(node == null ? "Pending" : "Running")
                .endStatus()
                .build();
    }
}
