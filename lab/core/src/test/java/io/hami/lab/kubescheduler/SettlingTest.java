package io.hami.lab.kubescheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.lab.kubescheduler.Settling.PodProgress;
import io.hami.lab.kubescheduler.SimulatedScheduler.State;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SettlingTest {
    private static final String LOCK = "hami.io/mutex.lock";
    private static final String HANDSHAKE = "hami.io/node-handshake";
    private static final Set<String> FREE_NOTHING = Set.of(LOCK, HANDSHAKE);

    @Test
    void aPodQueuedAgainOnlyByWritesThatFreeNothingHasHadItsAnswer() {
        // Tried at change 5; the lock and handshake writes since moved it back to the queue but numbered no change.
        assertThat(Settling.moving(new PodProgress(State.QUEUED, false, 5, 5))).isFalse();
        assertThat(Settling.moving(new PodProgress(State.UNSCHEDULABLE, false, 5, 3)))
                .isFalse();
    }

    @Test
    void aPodNotTriedSinceAReleaseMayStillMove() {
        // A release numbered 6 after its attempt at 5: waiting out its backoff, or still in the pool.
        assertThat(Settling.moving(new PodProgress(State.QUEUED, false, 5, 6))).isTrue();
        assertThat(Settling.moving(new PodProgress(State.UNSCHEDULABLE, false, 5, 6)))
                .isTrue();
        // Once an attempt began after it, and failed again, the pod is settled.
        assertThat(Settling.moving(new PodProgress(State.UNSCHEDULABLE, false, 6, 6)))
                .isFalse();
    }

    @Test
    void attemptsNewPodsAndDueRetriesAlwaysCount() {
        assertThat(Settling.moving(new PodProgress(State.IN_FLIGHT, false, 9, 0)))
                .isTrue();
        assertThat(Settling.moving(new PodProgress(State.QUEUED, false, Settling.NEVER_TRIED, 0)))
                .as("never tried")
                .isTrue();
        assertThat(Settling.moving(new PodProgress(State.QUEUED, true, 9, 0)))
                .as("a bind refused for lock contention, a failed filter call")
                .isTrue();
        assertThat(Settling.moving(new PodProgress(State.BOUND, false, 9, 12))).isFalse();
    }

    @Test
    void nodeLockAndHandshakeWritesGiveNoRoomButInventoryAndCapacityDo() {
        Node node = node(Map.of("hami.io/node-nvidia-register", "GPU-0,10,40960"), "8");

        Node locked = withAnnotation(node, LOCK, "2026-12-01T05:00:00Z,default,p");
        assertThat(SimulatedScheduler.schedulingPropertiesChanged(node, locked))
                .as("kube-scheduler moves the pod on it")
                .isTrue();
        assertThat(Settling.nodeMayGiveRoom(node, locked, FREE_NOTHING)).isFalse();
        assertThat(Settling.nodeMayGiveRoom(locked, node, FREE_NOTHING))
                .as("the lock released")
                .isFalse();
        assertThat(Settling.nodeMayGiveRoom(
                        node, withAnnotation(node, HANDSHAKE, "Requesting_2026-12-01T05:00:00Z"), FREE_NOTHING))
                .isFalse();

        assertThat(Settling.nodeMayGiveRoom(
                        node, withAnnotation(node, "hami.io/node-nvidia-register", "GPU-0,10,81920"), FREE_NOTHING))
                .as("the inventory changed")
                .isTrue();
        assertThat(Settling.nodeMayGiveRoom(
                        node, node(Map.of("hami.io/node-nvidia-register", "GPU-0,10,40960"), "4"), FREE_NOTHING))
                .as("allocatable changed")
                .isTrue();
        Node relabelled = new NodeBuilder(locked)
                .editMetadata()
                .addToLabels("gpu", "a100")
                .endMetadata()
                .build();
        assertThat(Settling.nodeMayGiveRoom(node, relabelled, FREE_NOTHING))
                .as("a lock write together with a label")
                .isTrue();
    }

    @Test
    void anAssignedPodGivesRoomWhenItEndsOrItsDecisionOrInitContainersChange() {
        Pod allocating = pod("Pending", Map.of("hami.io/bind-phase", "allocating"));
        Pod running = pod("Running", Map.of("hami.io/bind-phase", "allocating"));

        assertThat(Settling.assignedPodMayGiveRoom(allocating, running))
                .as("a status write")
                .isFalse();
        assertThat(Settling.assignedPodMayGiveRoom(
                        running, pod("Succeeded", Map.of("hami.io/bind-phase", "allocating"))))
                .isTrue();
        assertThat(Settling.assignedPodMayGiveRoom(allocating, pod("Pending", Map.of("hami.io/bind-phase", "failed"))))
                .isTrue();
        Pod initDone = new PodBuilder(running)
                .editStatus()
                .withInitContainerStatuses(new ContainerStatusBuilder()
                        .withName("warm-up")
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(0)
                        .endTerminated()
                        .endState()
                        .build())
                .endStatus()
                .build();
        assertThat(Settling.assignedPodMayGiveRoom(running, initDone)).isTrue();
    }

    @Test
    void aPendingPodsOwnConditionIsNoNewsButTheNudgeAfterAReleaseIs() {
        Pod pending = pod("Pending", Map.of());
        Pod marked = new PodBuilder(pending)
                .editStatus()
                .withConditions(new PodConditionBuilder()
                        .withType("PodScheduled")
                        .withStatus("False")
                        .withReason("Unschedulable")
                        .build())
                .endStatus()
                .build();
        Pod nudged = new PodBuilder(marked)
                .editMetadata()
                .addToAnnotations("hami.io/requeue-after-release", "2026-12-01T05:00:00.123Z")
                .endMetadata()
                .build();

        assertThat(Settling.pendingPodMayGiveRoom(pending, marked)).isFalse();
        assertThat(Settling.pendingPodMayGiveRoom(marked, nudged)).isTrue();
    }

    private static Node node(Map<String, String> annotations, String gpus) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName("n")
                .withAnnotations(annotations)
                .endMetadata()
                .withNewStatus()
                .withAllocatable(Map.of("nvidia.com/gpu", new Quantity(gpus)))
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build();
    }

    private static Node withAnnotation(Node n, String key, String value) {
        return new NodeBuilder(n)
                .editMetadata()
                .addToAnnotations(key, value)
                .endMetadata()
                .build();
    }

    private static Pod pod(String phase, Map<String, String> annotations) {
        return new PodBuilder()
                .withNewMetadata()
                .withName("p")
                .withNamespace("default")
                .withAnnotations(annotations)
                .endMetadata()
                .withNewSpec()
                .withNodeName("n")
                .endSpec()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build();
    }
}
