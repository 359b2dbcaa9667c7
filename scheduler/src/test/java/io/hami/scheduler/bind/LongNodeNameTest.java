package io.hami.scheduler.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.scheduler.extender.BindingArgs;
import org.junit.jupiter.api.Test;

/**
 * A node name may be 253 characters, a label value only 63: kube-apiserver refuses the {@code hami.io/vgpu-node} label
 * and a label selector for a longer one (found on the real control plane). Binds to such a node must still work and
 * still see the decisions made for it before.
 */
class LongNodeNameTest {
    static final String LONG = "gpu-node-" + "x".repeat(60) + ".example.internal";

    @Test
    void onlyNamesTheApiServerAcceptsAsLabelValuesAreUsedAsLabels() {
        assertThat(PodCalls.isLabelValue("node-1")).isTrue();
        assertThat(PodCalls.isLabelValue("a".repeat(63))).isTrue();
        assertThat(PodCalls.isLabelValue("a".repeat(64))).isFalse();
        assertThat(PodCalls.isLabelValue(LONG)).isFalse();
        assertThat(PodCalls.isLabelValue("-starts-with-dash")).isFalse();
    }

    @Test
    void aSecondPodOnALongNamedNodeSeesTheFirstOnesDecision() {
        try (var f = new BindFixture()) {
            f.node(LONG, BindFixture.gpu("GPU-a", 0));
            f.pod("a", 6000);
            f.pod("b", 6000);
            // The pod watch never hands a decision back in time, so each bind lists the node's decided pods.
            var binder = f.binder(BindObserver.NONE, BindFixture.WATCH_BEHIND);

            assertThat(binder.bind(new BindingArgs("a", "ns", "", LONG)).ok()).isTrue();
            var a = f.client.pods().inNamespace("ns").withName("a").get();
            assertThat(a.getMetadata().getAnnotations()).containsEntry(ProtocolKeys.VGPU_NODE, LONG);
            assertThat(a.getMetadata().getLabels()).doesNotContainKey(ProtocolKeys.VGPU_NODE);

            // The first pod's allocation has not reached the index (no informer here): the bind's own read must find
            // it.
            f.index.removePod("ns/a");
            f.locks.release(LONG, "ns", "a");
            var second = binder.bind(new BindingArgs("b", "ns", "", LONG));
            assertThat(second.ok()).as("6000 + 6000 MiB on an 8000 MiB card").isFalse();
            assertThat(second.error()).contains("another decision took the room first", "12000 MiB granted of 8000");
            // the read put the first pod's decision into the index: the next try is refused before deciding
            var again = binder.bind(new BindingArgs("b", "ns", "", LONG));
            assertThat(again.error()).contains("CardInsufficientMemory");
        }
    }
}
