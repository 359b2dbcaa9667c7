package io.hami.scheduler.bind;

import static io.hami.scheduler.bind.BindFixture.BACKENDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A decision fitted on an index that lacks another replica's decision written just before (a leader change mid-bind)
 * is checked, once written, against the index made current: by the pod watch handing over every change up to it, or
 * by a LIST of the node's decided pods when the watch does not get there. A collision gives the bind up.
 */
class EarlierDecisionCheckTest {
    BindFixture f;
    KubernetesClient client;
    Pod other;

    @BeforeEach
    void earlierReplicaDecides() {
        f = new BindFixture();
        client = f.client;
        f.node("n1", BindFixture.gpu("GPU-1", 0));
        f.pod("other", 6000);
        var first = binder(index(), BindFixture.WATCH_CURRENT);
        assertThat(first.bind(new BindingArgs("other", "ns", "", "n1")).ok()).isTrue();
        // its plugin allocated it and gave the lock back
        assertThat(f.locks.release("n1", "ns", "other")).isTrue();
        other = client.pods().inNamespace("ns").withName("other").get();
    }

    @AfterEach
    void stop() {
        f.close();
    }

    @Test
    void theWatchHandsOverTheEarlierDecisionAndTheCollidingBindGivesUpWithoutAList() {
        f.pod("a", 3000);
        var stale = index();
        f.server.requests().reset();

        BindingResult result = binder(stale, watchDeliveringOther(stale)).bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.ok()).isFalse();
        assertThat(result.error())
                .contains("another decision took the room first", "GPU-1", "9000 MiB granted of 8000");
        assertThat(f.server.requests().count("list pods")).isZero();
        assertGaveUp();
    }

    @Test
    void aWatchThatDoesNotGetThereIsReplacedByAList() {
        f.pod("a", 3000);
        f.server.requests().reset();

        BindingResult result = binder(index(), (rv, max) -> false).bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.ok()).isFalse();
        assertThat(result.error()).contains("another decision took the room first", "9000 MiB granted of 8000");
        assertThat(f.server.requests().count("list pods")).isEqualTo(1);
        assertGaveUp();
    }

    @Test
    void aDecisionThatFitsBesideTheEarlierOneIsBound() {
        f.pod("a", 2000);
        var stale = index();

        BindingResult result = binder(stale, watchDeliveringOther(stale)).bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.ok()).as(result.error()).isTrue();
        assertThat(client.pods().inNamespace("ns").withName("a").get().getSpec().getNodeName())
                .isEqualTo("n1");
    }

    /** A pod watch that delivers the earlier replica's decision into {@code stale} before ours comes back. */
    private PodChangesSeen watchDeliveringOther(UsageIndex stale) {
        return (rv, max) -> {
            stale.putPod(
                    "ns/other",
                    PodUsage.of(other, BACKENDS),
                    other.getMetadata().getResourceVersion());
            return true;
        };
    }

    private void assertGaveUp() {
        Pod a = client.pods().inNamespace("ns").withName("a").get();
        assertThat(a.getSpec().getNodeName()).isNull();
        assertThat(a.getMetadata().getAnnotations()).containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_FAILED);
        assertThat(f.locks.current("n1")).isNull();
    }

    /** An index that knows the node but not the earlier replica's decision. */
    private UsageIndex index() {
        return f.indexWithoutDecisions();
    }

    private Binder binder(UsageIndex index, PodChangesSeen seen) {
        return f.binder(index, SchedulingPolicy.UPSTREAM_DEFAULTS, BindObserver.NONE, seen);
    }
}
