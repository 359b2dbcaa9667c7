package io.hami.plugin.allocate;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.NodeLock;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The design D4/D5 (docs/design.md#d4, docs/design.md#d5) attribution rule on hand-made node states. */
class PodMatcherTest {
    static final String KEY = "hami.io/vgpu-devices-to-allocate";
    static final String RESOURCE = "nvidia.com/gpu";
    static final String ENTRY = "GPU-1,NVIDIA,1000,10:;";
    static final NodeLock LOCK_A = new NodeLock(OffsetDateTime.parse("2026-08-21T10:00:00Z"), "default", "a");

    @Test
    void theLockHolderIsServedWhenItAloneIsWaiting() {
        Pod a = pod("a", "n1", "allocating", ENTRY, "Pending");
        Pod done = pod("done", "n1", "success", ";", "Running");
        assertThat(match(LOCK_A, done, a)).isEqualTo(new Match.Serve(a));
    }

    @Test
    void anotherWaitingPodMakesTheCallAmbiguous() {
        Pod a = pod("a", "n1", "allocating", ENTRY, "Pending");
        Pod b = pod("b", "n1", "failed", ENTRY, null);
        assertThat(match(LOCK_A, a, b))
                .isEqualTo(new Match.Ambiguous("2 pods on node n1 are waiting for NVIDIA devices "
                        + "(default/a bind-phase=allocating, default/b bind-phase=failed); the node lock names default/a, but the "
                        + "kubelet does not say which pod this Allocate is for, so it is not served"));
    }

    @Test
    void podsThatCannotReceiveAnAllocateDoNotCount() {
        Pod a = pod("a", "n1", "allocating", ENTRY, "Pending");
        List<Pod> all = new ArrayList<>(List.of(
                pod("rejected", "n1", "failed", ENTRY, "Failed"),
                pod("elsewhere", "n2", "allocating", ENTRY, "Pending"),
                pod("consumed", "n1", "allocating", ";", "Pending"),
                pod("other-vendor", "n1", "allocating", null, "Pending"),
                terminating(pod("deleted", "n1", "allocating", ENTRY, "Pending"))));
        all.add(a);
        assertThat(PodMatcher.match("n1", "NVIDIA", RESOURCE, LOCK_A, all, KEY)).isEqualTo(new Match.Serve(a));
    }

    @Test
    void aLockHolderThatIsNotAllocatingIsNeverServed() {
        Pod a = pod("a", "n1", "failed", ENTRY, "Pending");
        assertThat(match(LOCK_A, a))
                .isEqualTo(new Match.Unmatched("pod default/a holds the lock of node n1 but its bind-phase is failed"));
    }

    @Test
    void aLockHolderThatIsNotWaitingHereIsNeverServed() {
        Pod a = pod("a", "n1", "allocating", ";", "Pending");
        assertThat(match(LOCK_A, a))
                .isEqualTo(new Match.Unmatched("node n1 is locked by pod default/a, which is not "
                        + "waiting for NVIDIA devices on this node (bind-phase=allocating, phase=Pending)"));
        assertThat(match(LOCK_A))
                .isEqualTo(new Match.Unmatched("node n1 is locked by pod default/a, which is not "
                        + "waiting for NVIDIA devices on this node (not bound to this node or gone)"));
    }

    /** Upstream #3041/#3076: a pod that wrote a decision on itself is not served without the node lock naming it. */
    @Test
    void withoutALockNothingIsServedEvenToTheOnlyAllocatingPod() {
        Pod self = requesting(pod("self", "n1", "allocating", ENTRY, "Pending"), "limits", "1");
        assertThat(match(null, self))
                .isEqualTo(new Match.Unmatched("node n1 is not locked: an Allocate of nvidia.com/gpu "
                        + "is served only for the pod the node lock names; waiting for NVIDIA devices: default/self "
                        + "bind-phase=allocating"));
        assertThat(match(null))
                .isEqualTo(
                        new Match.Unmatched(
                                "node n1 is not locked: an Allocate of nvidia.com/gpu is served only for the pod the node lock names"));
    }

    @Test
    void aLegacyLockWithoutAPodServesNothing() {
        NodeLock legacy = new NodeLock(OffsetDateTime.parse("2026-08-21T10:00:00Z"), "", "");
        Pod only = pod("only", "n1", "allocating", ENTRY, "Pending");
        assertThat(match(legacy, only))
                .isEqualTo(new Match.Unmatched("the lock of node n1 names no pod (legacy lock): an "
                        + "Allocate of nvidia.com/gpu is served only for the pod the node lock names; waiting for NVIDIA "
                        + "devices: default/only bind-phase=allocating"));
    }

    @Test
    void anUndecodableValueStillCountsAsWaitingSoItIsNotSilentlySkipped() {
        Pod a = pod("a", "n1", "allocating", ENTRY, "Pending");
        Pod broken = pod("broken", "n1", "allocating", "GPU-1,NVIDIA,12x,0:;", "Pending");
        assertThat(match(LOCK_A, a, broken)).isInstanceOf(Match.Ambiguous.class);
    }

    /** The case: B asked for the GPU resource but was bound with no decision; its Allocate looks like A's. */
    @Test
    void aPodRequestingTheResourceWithoutADecisionMakesTheHolderIndistinguishable() {
        Pod a = requesting(pod("a", "n1", "allocating", "GPU-1,NVIDIA,3000,30:;", "Pending"), "limits", "1");
        Pod b = requesting(bare("b", "n1", "Pending"), "limits", "1e18");
        assertThat(match(LOCK_A, a, b))
                .isEqualTo(new Match.Indistinguishable(
                        "Allocate of nvidia.com/gpu on node n1 "
                                + "refused: pod default/a holds the node lock, but pod default/b also requests nvidia.com/gpu without a "
                                + "decision of the HAMi scheduler for this node; the kubelet does not say which pod this Allocate is "
                                + "for, so it is not served",
                        a,
                        List.of(b)));
    }

    @Test
    void requestsInitContainersAndUnreadableQuantitiesAllCount() {
        Pod a = pod("a", "n1", "allocating", ENTRY, "Pending");
        Pod byRequests = requesting(bare("by-requests", "n1", "Pending"), "requests", "2");
        Pod byInit = bare("by-init", "n1", null);
        byInit.getSpec().setInitContainers(List.of(container("limits", "1")));
        Pod unreadable = requesting(bare("unreadable", "n1", "Pending"), "limits", "one");
        // decided for another node: nothing this node's scheduler decision says
        Pod otherNode = requesting(pod("other-node", "n2", "allocating", ENTRY, "Pending"), "limits", "1");
        // entries consumed but never finished: no decision left to tell it by
        Pod consumedNotDone = requesting(pod("consumed", "n1", "failed", ";", "Pending"), "limits", "1");
        for (Pod b : List.of(byRequests, byInit, unreadable, otherNode, consumedNotDone)) {
            assertThat(match(LOCK_A, a, b))
                    .as(b.getMetadata().getName())
                    .isInstanceOfSatisfying(Match.Indistinguishable.class, i -> {
                        assertThat(i.holder()).isSameAs(a);
                        assertThat(i.undecided()).containsExactly(b);
                    });
        }
        Match both = match(LOCK_A, a, byRequests, byInit);
        assertThat(both).isInstanceOfSatisfying(Match.Indistinguishable.class, i -> {
            assertThat(i.undecided()).containsExactly(byRequests, byInit);
            assertThat(i.reason()).contains("pods default/by-requests, default/by-init also request nvidia.com/gpu");
        });
    }

    @Test
    void podsWithoutADecisionThatCannotCallThisAllocateDoNotCount() {
        Pod a = requesting(pod("a", "n1", "allocating", ENTRY, "Pending"), "limits", "1");
        List<Pod> all = new ArrayList<>(List.of(
                requesting(bare("no-gpu", "n1", "Pending"), "limits", "0"),
                otherResource(bare("other-resource", "n1", "Pending")),
                requesting(bare("rejected", "n1", "Failed"), "limits", "1"),
                requesting(bare("running", "n1", "Running"), "limits", "1"),
                terminating(requesting(bare("deleted", "n1", "Pending"), "limits", "1")),
                // allocated and finished, Pending only while its images are pulled
                requesting(pod("done", "n1", "success", ";", "Pending"), "limits", "1"),
                // another vendor's pod that finished: no NVIDIA request
                otherResource(pod("other-vendor", "n1", "success", null, "Pending"))));
        all.add(a);
        assertThat(PodMatcher.match("n1", "NVIDIA", RESOURCE, LOCK_A, all, KEY)).isEqualTo(new Match.Serve(a));
    }

    private static Match match(NodeLock lock, Pod... pods) {
        return PodMatcher.match("n1", "NVIDIA", RESOURCE, lock, List.of(pods), KEY);
    }

    private static Pod pod(String name, String node, String bindPhase, String toAllocate, String phase) {
        Map<String, String> a = new HashMap<>();
        a.put(ProtocolKeys.VGPU_NODE, node);
        a.put(ProtocolKeys.BIND_PHASE, bindPhase);
        if (toAllocate != null) {
            a.put(KEY, toAllocate);
        }
        Pod p = bare(name, node, phase);
        p.getMetadata().setAnnotations(a);
        return p;
    }

    /** Bound to the node with no annotations of the scheduler. */
    private static Pod bare(String name, String node, String phase) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace("default")
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("main")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build();
    }

    private static Pod requesting(Pod p, String field, String amount) {
        p.getSpec().setContainers(List.of(container(field, amount)));
        return p;
    }

    private static Pod otherResource(Pod p) {
        p.getSpec()
                .setContainers(List.of(new ContainerBuilder()
                        .withName("main")
                        .withNewResources()
                        .withLimits(Map.of("hygon.com/hcunum", new Quantity("1")))
                        .endResources()
                        .build()));
        return p;
    }

    private static Container container(String field, String amount) {
        Map<String, Quantity> q = Map.of(RESOURCE, new Quantity(amount));
        ContainerBuilder b = new ContainerBuilder().withName("c");
        return (field.equals("limits")
                        ? b.withNewResources().withLimits(q)
                        : b.withNewResources().withRequests(q))
                .endResources()
                .build();
    }

    private static Pod terminating(Pod p) {
        p.getMetadata().setDeletionTimestamp("2026-08-21T10:00:00Z");
        return p;
    }
}
