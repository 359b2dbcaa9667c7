package io.hami.plugin.allocate;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.plugin.testing.TestCluster;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.spi.VendorKeys;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The end of an allocation when the API server fails the {@code success} write with something other than a conflict
 * (a 500, as kube-apiserver answers while etcd restarts; e2e's {@code faults.EtcdRestartTest} found a served, Running
 * pod left {@code allocating} that way): the write is tried again within the retry budget, and the lock released.
 */
class PodOutcomeTest {
    private static final VendorKeys KEYS = new VendorKeys(
            Optional.empty(),
            Optional.empty(),
            Optional.empty(),
            "hami.io/vgpu-devices-to-allocate",
            "hami.io/vgpu-devices-allocated");
    private static final String POD_PATH = "/api/v1/namespaces/" + TestCluster.NS + "/pods/p";

    private final TestCluster cluster = new TestCluster();

    @AfterEach
    void close() {
        cluster.close();
    }

    /** Pod {@code p} bound to {@code n1} under its lock, its entry consumed as Allocate leaves it. */
    private Pod consumed() {
        cluster.node("n1");
        cluster.pod("p", List.of(), List.of(TestCluster.container("c")));
        cluster.bind("p", "n1", Map.of(KEYS, "GPU-0,NVIDIA,1000,0:;"));
        return cluster.client()
                .pods()
                .inNamespace(TestCluster.NS)
                .withName("p")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        AnnotationPatch.mergePatch(Map.of(KEYS.toAllocateKey(), ";"), Map.of(), null));
    }

    private PodOutcome outcome(Duration successRetry) {
        return new PodOutcome(cluster.client(), cluster.locks(), "n1", List.of(KEYS.toAllocateKey()), successRetry);
    }

    @Test
    void aFailedSuccessWriteIsTriedAgainAndTheLockReleased() {
        Pod patched = consumed();
        cluster.server().faults().failNext("PATCH", POD_PATH, 500, 2);

        outcome(PodOutcome.SUCCESS_RETRY).completeIfDone(patched);

        assertThat(cluster.server().faults().injectedCount()).isEqualTo(2);
        assertThat(cluster.annotation("p", ProtocolKeys.BIND_PHASE)).isEqualTo(ProtocolKeys.PHASE_SUCCESS);
        assertThat(cluster.locks().current("n1")).isNull();
    }

    @Test
    void failedReadsOfThePodAreTriedAgainToo() {
        Pod patched = consumed();
        cluster.server().faults().failNext("PATCH", POD_PATH, 503, 1).failNext("GET", POD_PATH, 500, 1);

        outcome(PodOutcome.SUCCESS_RETRY).completeIfDone(patched);

        assertThat(cluster.server().faults().injectedCount()).isEqualTo(2);
        assertThat(cluster.annotation("p", ProtocolKeys.BIND_PHASE)).isEqualTo(ProtocolKeys.PHASE_SUCCESS);
        assertThat(cluster.locks().current("n1")).isNull();
    }

    @Test
    void anApiServerAwayLongerThanTheBudgetIsGivenUpOnAndTheLockStillReleased() {
        Pod patched = consumed();
        cluster.server().faults().failNext("PATCH", POD_PATH, 500, 1_000);

        long t0 = System.nanoTime();
        outcome(Duration.ofMillis(600)).completeIfDone(patched);

        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(5));
        cluster.server().faults().clear();
        assertThat(cluster.annotation("p", ProtocolKeys.BIND_PHASE)).isEqualTo(ProtocolKeys.PHASE_ALLOCATING);
        assertThat(cluster.locks().current("n1")).isNull();
    }
}
