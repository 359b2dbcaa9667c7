package io.hami.scheduler.requeue;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReleasesTest {
    static final Grant GPU = new Grant(1, 8000, 100);
    static final Grant HCU = new Grant(1, 4000, 50);

    static PodUsage.Counted holds(String node, Map<String, Grant> byVendor) {
        return new PodUsage.Counted(node, Map.of("dev", GPU), byVendor);
    }

    @Test
    void aPodThatStopsCountingReleasesEveryVendorItHeld() {
        var both = holds("n1", Map.of("NVIDIA", GPU, "HCU", HCU));
        assertThat(Releases.of(both, new PodUsage.NotCounted())).containsExactly("HCU", "NVIDIA");
    }

    @Test
    void aShrunkGrantReleasesItsVendorOnly() {
        var before = holds("n1", Map.of("NVIDIA", GPU, "HCU", HCU));
        var initDone = holds("n1", Map.of("NVIDIA", new Grant(1, 8000, 60), "HCU", HCU));
        assertThat(Releases.of(before, initDone)).containsExactly("NVIDIA");
        var hcuGone = holds("n1", Map.of("NVIDIA", GPU));
        assertThat(Releases.of(before, hcuGone)).containsExactly("HCU");
    }

    @Test
    void theSameOrALargerGrantReleasesNothing() {
        var before = holds("n1", Map.of("NVIDIA", GPU));
        assertThat(Releases.of(before, holds("n1", Map.of("NVIDIA", GPU)))).isEmpty();
        assertThat(Releases.of(before, holds("n1", Map.of("NVIDIA", new Grant(2, 9000, 100)))))
                .isEmpty();
    }

    @Test
    void aGrantOnAnotherNodeReleasesTheFirstNodesDevices() {
        var before = holds("n1", Map.of("NVIDIA", GPU));
        assertThat(Releases.of(before, holds("n2", Map.of("NVIDIA", GPU)))).containsExactly("NVIDIA");
    }

    @Test
    void nothingHeldOrAnUnreadableAllocationReleasesNothing() {
        assertThat(Releases.of(new PodUsage.NotCounted(), new PodUsage.NotCounted()))
                .isEmpty();
        assertThat(Releases.of(new PodUsage.NotCounted(), holds("n1", Map.of("NVIDIA", GPU))))
                .isEmpty();
        assertThat(Releases.of(new PodUsage.Undecodable("n1", "bad"), new PodUsage.NotCounted()))
                .isEmpty();
        // the node fails closed while the allocation cannot be read: nothing is free there
        assertThat(Releases.of(holds("n1", Map.of("NVIDIA", GPU)), new PodUsage.Undecodable("n1", "bad")))
                .isEmpty();
    }
}
