package io.hami.lab.kubescheduler;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoomChangesTest {
    private static final String LOCK = "hami.io/mutex.lock";
    private static final String HANDSHAKE = "hami.io/node-handshake";
    private static final Set<String> FREE_NOTHING = Set.of(LOCK, HANDSHAKE);

    @Test
    void nodeLockAndHandshakeWritesGiveNoRoomButInventoryAndCapacityDo() {
        Node node = node(Map.of("hami.io/node-nvidia-register", "GPU-0,10,40960"), "8");

        Node locked = withAnnotation(node, LOCK, "2026-12-01T05:00:00Z,default,p");
        assertThat(RoomChanges.node(node, locked, FREE_NOTHING)).isFalse();
        assertThat(RoomChanges.node(locked, node, FREE_NOTHING))
                .as("the lock released")
                .isFalse();
        assertThat(RoomChanges.node(
                        node, withAnnotation(node, HANDSHAKE, "Requesting_2026-12-01T05:00:00Z"), FREE_NOTHING))
                .isFalse();

        assertThat(RoomChanges.node(
                        node, withAnnotation(node, "hami.io/node-nvidia-register", "GPU-0,10,81920"), FREE_NOTHING))
                .as("the inventory changed")
                .isTrue();
        assertThat(RoomChanges.node(
                        node, node(Map.of("hami.io/node-nvidia-register", "GPU-0,10,40960"), "4"), FREE_NOTHING))
                .as("allocatable changed")
                .isTrue();
        Node relabelled = new NodeBuilder(locked)
                .editMetadata()
                .addToLabels("gpu", "a100")
                .endMetadata()
                .build();
        assertThat(RoomChanges.node(node, relabelled, FREE_NOTHING))
                .as("a lock write together with a label")
                .isTrue();
        Node cordoned = new NodeBuilder(node)
                .editOrNewSpec()
                .withUnschedulable(true)
                .endSpec()
                .build();
        assertThat(RoomChanges.node(cordoned, node, FREE_NOTHING))
                .as("uncordoned")
                .isTrue();
    }

    @Test
    void anAssignedPodGivesRoomWhenItEndsOrItsDecisionOrInitContainersChange() {
        Pod allocating = pod("Pending", Map.of("hami.io/bind-phase", "allocating"));
        Pod running = pod("Running", Map.of("hami.io/bind-phase", "allocating"));

        assertThat(RoomChanges.assignedPod(allocating, running))
                .as("a status write")
                .isFalse();
        assertThat(RoomChanges.assignedPod(running, pod("Succeeded", Map.of("hami.io/bind-phase", "allocating"))))
                .isTrue();
        assertThat(RoomChanges.assignedPod(allocating, pod("Pending", Map.of("hami.io/bind-phase", "failed"))))
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
        assertThat(RoomChanges.assignedPod(running, initDone)).isTrue();
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

        assertThat(RoomChanges.pendingPod(pending, marked)).isFalse();
        assertThat(RoomChanges.pendingPod(marked, nudged)).isTrue();
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
