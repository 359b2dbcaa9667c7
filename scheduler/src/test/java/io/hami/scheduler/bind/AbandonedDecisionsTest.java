package io.hami.scheduler.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.annotation.ProtocolKeys;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A decision written for a bind that then failed is marked failed, retried through conflicts, and never for another bind. */
class AbandonedDecisionsTest {
    static final String POD_PATH = "/api/v1/namespaces/ns/pods/p";
    static final String BIND_TIME = "1780000000";

    EmbeddedApiServer server;
    KubernetesClient client;
    /** The retries the class asked for, run by hand. */
    final Deque<Runnable> scheduled = new ArrayDeque<>();

    final List<Duration> delays = new ArrayList<>();
    AbandonedDecisions abandoned;

    @BeforeEach
    void start() {
        server = EmbeddedApiServer.start();
        client = server.newClient();
        abandoned = new AbandonedDecisions(
                client,
                (task, delay) -> {
                    scheduled.add(task);
                    delays.add(delay);
                },
                List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4)));
        client.pods()
                .inNamespace("ns")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withNamespace("ns")
                        .withName("p")
                        .addToAnnotations(Map.of(
                                ProtocolKeys.BIND_PHASE,
                                ProtocolKeys.PHASE_ALLOCATING,
                                ProtocolKeys.BIND_TIME,
                                BIND_TIME,
                                ProtocolKeys.VGPU_NODE,
                                "n1"))
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("c")
                        .withImage("x")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void markedFailedAtOnceWhenTheApiServerTakesIt() {
        abandoned.markFailed("ns", "p", "n1", BIND_TIME);
        assertThat(phase()).isEqualTo(ProtocolKeys.PHASE_FAILED);
        assertThat(scheduled).isEmpty();
    }

    @Test
    void failedPatchesAreRetriedWithTheBackoffUntilOneLands() {
        server.faults().failNext("PATCH", POD_PATH, 409, 2);

        abandoned.markFailed("ns", "p", "n1", BIND_TIME);
        assertThat(phase()).isEqualTo(ProtocolKeys.PHASE_ALLOCATING);
        runScheduled();

        assertThat(phase()).isEqualTo(ProtocolKeys.PHASE_FAILED);
        assertThat(delays).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    @Test
    void givesUpAfterTheLastRetry() {
        server.faults().failNext("PATCH", POD_PATH, 409, 100);

        abandoned.markFailed("ns", "p", "n1", BIND_TIME);
        runScheduled();

        assertThat(delays).hasSize(3);
        assertThat(server.faults().injectedCount()).isEqualTo(4);
        assertThat(phase()).isEqualTo(ProtocolKeys.PHASE_ALLOCATING);
    }

    @Test
    void aNewerDecisionIsLeftAlone() {
        server.faults().failNext("PATCH", POD_PATH, 409, 1);
        abandoned.markFailed("ns", "p", "n1", BIND_TIME);

        // kube-scheduler retried the pod and the next bind wrote its own decision before our retry ran
        client.pods()
                .inNamespace("ns")
                .withName("p")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        AnnotationPatch.mergePatch(Map.of(ProtocolKeys.BIND_TIME, "1780000005"), Map.of(), null));
        runScheduled();

        assertThat(phase()).isEqualTo(ProtocolKeys.PHASE_ALLOCATING);
    }

    @Test
    void aPodThatGotBoundAfterAllIsLeftAlone() {
        server.faults().failNext("PATCH", POD_PATH, 409, 1);
        abandoned.markFailed("ns", "p", "n1", BIND_TIME);

        client.bindings()
                .inNamespace("ns")
                .resource(new BindingBuilder()
                        .withNewMetadata()
                        .withName("p")
                        .withNamespace("ns")
                        .endMetadata()
                        .withNewTarget()
                        .withKind("Node")
                        .withName("n1")
                        .endTarget()
                        .build())
                .create();
        runScheduled();

        assertThat(phase()).isEqualTo(ProtocolKeys.PHASE_ALLOCATING);
    }

    @Test
    void aDeletedPodEndsTheRetries() {
        server.faults().failNext("PATCH", POD_PATH, 409, 1);
        abandoned.markFailed("ns", "p", "n1", BIND_TIME);

        client.pods().inNamespace("ns").withName("p").withGracePeriod(0).delete();
        runScheduled();

        assertThat(delays).hasSize(1);
        assertThat(client.pods().inNamespace("ns").withName("p").get()).isNull();
    }

    private void runScheduled() {
        while (!scheduled.isEmpty()) {
            scheduled.poll().run();
        }
    }

    private String phase() {
        Pod p = client.pods().inNamespace("ns").withName("p").get();
        return p.getMetadata().getAnnotations().get(ProtocolKeys.BIND_PHASE);
    }
}
