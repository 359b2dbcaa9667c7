package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Injected failures answer with a Status and the chosen code before the store is touched: no state, no events. */
class InjectedFaultsTest {

    private static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);

    private static EmbeddedApiServer server;
    private static KubernetesClient client;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start();
        var config = server.clientConfig();
        config.setRequestRetryBackoffLimit(0); // fabric8 retries 5xx by default, which would hide them
        client = new KubernetesClientBuilder().withConfig(config).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @AfterEach
    void clear() {
        server.faults().clear();
    }

    private static int codeOf(Runnable request) {
        try {
            request.run();
            return 200;
        } catch (KubernetesClientException e) {
            return e.getCode();
        }
    }

    @Test
    void failNextFailsTheMatchingRequestsThenStops() {
        client.nodes().resource(Fixtures.node("n1")).create();
        int before = server.faults().injectedCount();
        server.faults().failNext("PATCH", "/api/v1/nodes/n1", 500, 2);
        Runnable patch = () -> client.nodes().withName("n1").patch(MERGE, "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}");

        assertThat(List.of(codeOf(patch), codeOf(patch), codeOf(patch))).containsExactly(500, 500, 200);
        assertThat(server.faults().injectedCount() - before).isEqualTo(2);
    }

    @Test
    void anInjectedFailureChangesNoStateAndSendsNoEvent() throws InterruptedException {
        Node created = client.nodes().resource(Fixtures.node("n2")).create();
        RecordingHandler<Node> events = new RecordingHandler<>();
        Watch watch = client.nodes().withField("metadata.name", "n2").watch(events);
        try {
            events.await(e -> e.type().equals("ADDED"));
            server.faults().failNext("*", "/api/v1/nodes/n2", 409, 2);

            assertThatThrownBy(() ->
                            client.nodes().withName("n2").patch(MERGE, "{\"metadata\":{\"labels\":{\"a\":\"b\"}}}"))
                    .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                        assertThat(e.getCode()).isEqualTo(409);
                        assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
                    });
            assertThat(codeOf(() -> client.nodes().withName("n2").delete())).isEqualTo(409);

            assertThat(events.drain(Duration.ofMillis(300))).isEmpty();
        } finally {
            watch.close();
        }
        Node stored = client.nodes().withName("n2").get();
        assertThat(stored.getMetadata().getResourceVersion())
                .isEqualTo(created.getMetadata().getResourceVersion());
        assertThat(stored.getMetadata().getLabels()).isNullOrEmpty();
    }

    @Test
    void failWritesFailsOnlyWritesWithTheGivenCodesAndProbability() {
        client.nodes().resource(Fixtures.node("n3")).create();
        server.faults().failWrites(0.5, 7, 409, 500);
        List<Integer> codes = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            codes.add(codeOf(() -> client.nodes()
                    .withName("n3")
                    .patch(MERGE, "{\"metadata\":{\"labels\":{\"i\":\"" + codes.size() + "\"}}}")));
        }
        List<Integer> reads = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            reads.add(codeOf(() -> client.nodes().withName("n3").get()));
        }

        assertThat(codes).containsOnly(200, 409, 500).contains(409, 500);
        assertThat(codes.stream().filter(c -> c != 200).count()).isBetween(70L, 130L);
        assertThat(reads).containsOnly(200);
    }

    @Test
    void failWritesIsReproducibleForASeed() {
        client.nodes().resource(Fixtures.node("n4")).create();
        List<List<Integer>> runs = new ArrayList<>();
        for (int run = 0; run < 2; run++) {
            server.faults().failWrites(0.3, 42, 500);
            List<Integer> codes = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                codes.add(codeOf(() -> client.nodes().withName("n4").patch(MERGE, "{\"metadata\":{\"labels\":{}}}")));
            }
            runs.add(codes);
        }
        assertThat(runs.get(0)).isEqualTo(runs.get(1)).contains(500, 200);
    }

    @Test
    void clearStopsInjecting() {
        client.nodes().resource(Fixtures.node("n5")).create();
        server.faults().failWrites(1.0, 1, 503);
        assertThat(codeOf(() -> client.nodes().withName("n5").delete())).isEqualTo(503);

        server.faults().clear();

        assertThat(codeOf(() -> client.nodes().withName("n5").delete())).isEqualTo(200);
        assertThat(client.nodes().withName("n5").get()).isNull();
    }

    @Test
    void invalidRulesAreRejected() {
        assertThatThrownBy(() -> server.faults().failWrites(1.5, 1, 500)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.faults().failWrites(0.1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.faults().failNext("GET", ".*", 200, 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> server.faults().failNext("GET", ".*", 500, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
