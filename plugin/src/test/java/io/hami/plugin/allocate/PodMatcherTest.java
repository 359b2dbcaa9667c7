package io.hami.plugin.allocate;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.NodeLock;
import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The D4/D5 attribution rule on hand-made node states. */
class PodMatcherTest {
    static final String KEY = "hami.io/vgpu-devices-to-allocate";
    static final String ENTRY = "GPU-1,NVIDIA,1000,10:;";
    static final NodeLock LOCK_A = new NodeLock(OffsetDateTime.parse("2026-08-21T10:00:00Z"), "default", "a");

    @Test
    void theLockHolderIsServedWhenItAloneIsWaiting() {
        Pod a = pod("a", "n1", "allocating", ENTRY, "Pending");
        Pod done = pod("done", "n1", "success", ";", "Running");
        assertThat(PodMatcher.match("n1", "NVIDIA", LOCK_A, List.of(done, a), KEY)).isEqualTo(new Match.Serve(a));
    }

    @Test
    void anotherWaitingPodMakesTheCallAmbiguous() {
        Pod a = pod("a", "n1", "allocating", ENTRY, "Pending");
        Pod b = pod("b", "n1", "failed", ENTRY, null);
        assertThat(PodMatcher.match("n1", "NVIDIA", LOCK_A, List.of(a, b), KEY)).isInstanceOf(Match.Ambiguous.class);
    }

    @Test
    void podsThatCannotReceiveAnAllocateDoNotCount() {
        Pod a = pod("a", "n1", "allocating", ENTRY, "Pending");
        List<Pod> others = List.of(
                pod("rejected", "n1", "failed", ENTRY, "Failed"),
                pod("elsewhere", "n2", "allocating", ENTRY, "Pending"),
                pod("consumed", "n1", "allocating", ";", "Pending"),
                pod("other-vendor", "n1", "allocating", null, "Pending"),
                terminating(pod("deleted", "n1", "allocating", ENTRY, "Pending")));
        var all = new java.util.ArrayList<>(others);
        all.add(a);
        assertThat(PodMatcher.match("n1", "NVIDIA", LOCK_A, all, KEY)).isEqualTo(new Match.Serve(a));
    }

    @Test
    void aLockHolderThatIsNotAllocatingIsNeverServed() {
        Pod a = pod("a", "n1", "failed", ENTRY, "Pending");
        assertThat(PodMatcher.match("n1", "NVIDIA", LOCK_A, List.of(a), KEY)).isEqualTo(new Match.Unmatched(
                "pod default/a holds the lock of node n1 but its bind-phase is failed"));
    }

    @Test
    void withoutALockOnlyASingleAllocatingPodIsServed() {
        Pod a = pod("a", "n1", "allocating", ENTRY, "Pending");
        Pod b = pod("b", "n1", "allocating", ENTRY, "Pending");
        assertThat(PodMatcher.match("n1", "NVIDIA", null, List.of(a), KEY)).isEqualTo(new Match.Serve(a));
        assertThat(PodMatcher.match("n1", "NVIDIA", null, List.of(a, b), KEY)).isInstanceOf(Match.Ambiguous.class);
        NodeLock legacy = new NodeLock(OffsetDateTime.parse("2026-08-21T10:00:00Z"), "", "");
        assertThat(PodMatcher.match("n1", "NVIDIA", legacy, List.of(pod("f", "n1", "failed", ENTRY, "Pending")), KEY))
                .isEqualTo(new Match.Unmatched("the only pod on node n1 waiting for NVIDIA devices, default/f, has "
                        + "bind-phase failed and no node lock"));
    }

    @Test
    void anUndecodableValueStillCountsAsWaitingSoItIsNotSilentlySkipped() {
        Pod a = pod("a", "n1", "allocating", ENTRY, "Pending");
        Pod broken = pod("broken", "n1", "allocating", "GPU-1,NVIDIA,12x,0:;", "Pending");
        assertThat(PodMatcher.match("n1", "NVIDIA", LOCK_A, List.of(a, broken), KEY)).isInstanceOf(Match.Ambiguous.class);
    }

    private static Pod pod(String name, String node, String bindPhase, String toAllocate, String phase) {
        Map<String, String> a = new HashMap<>();
        a.put(ProtocolKeys.VGPU_NODE, node);
        a.put(ProtocolKeys.BIND_PHASE, bindPhase);
        if (toAllocate != null) {
            a.put(KEY, toAllocate);
        }
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("default").withAnnotations(a).endMetadata()
                .withNewSpec().withNodeName(node).endSpec().withNewStatus().withPhase(phase).endStatus().build();
    }

    private static Pod terminating(Pod p) {
        p.getMetadata().setDeletionTimestamp("2026-08-21T10:00:00Z");
        return p;
    }
}
