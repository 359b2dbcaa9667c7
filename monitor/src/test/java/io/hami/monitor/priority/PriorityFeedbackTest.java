package io.hami.monitor.priority;

import static io.hami.monitor.Regions.container;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.monitor.scan.ContainerRegion;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PriorityFeedbackTest {
    static final String A = "GPU-aaaaaaaa-0000-0000-0000-000000000000";
    static final String B = "GPU-bbbbbbbb-0000-0000-0000-000000000000";

    static Map<String, ControlWrite> byContainer(List<ContainerRegion> all) {
        return PriorityFeedback.decide(all).stream()
                .collect(
                        Collectors.toMap(w -> w.file().getParent().getFileName().toString(), Function.identity()));
    }

    @Test
    void anActiveHighPriorityContainerBlocksOnlyTheLowPriorityOnesOnItsDevice() {
        var high = container("p1", "high", 0, 5, 0, A);
        var lowOnA = container("p2", "lowA", 1, 3, 0, A);
        var lowOnB = container("p3", "lowB", 1, 3, 0, B);

        var writes = byContainer(List.of(high, lowOnA, lowOnB));

        assertThat(writes.get("p2_lowA")).isEqualTo(new ControlWrite(lowOnA.file(), -1, 1));
        // Alone on B: decremented, not blocked, no contention.
        assertThat(writes.get("p3_lowB")).isEqualTo(new ControlWrite(lowOnB.file(), 2, 0));
        // The high one is only decremented; nothing above it, nobody of its priority beside it.
        assertThat(writes.get("p1_high")).isEqualTo(new ControlWrite(high.file(), 4, 0));
    }

    @Test
    void aBlockedContainerIsReleasedWhenTheHighPriorityOneGoesIdle() {
        // recent_kernel 1 decrements to 0: the high one is no longer active.
        var high = container("p1", "high", 0, 1, 0, A);
        var blocked = container("p2", "low", 1, -1, 1, A);

        var writes = byContainer(List.of(high, blocked));

        assertThat(writes.get("p2_low")).isEqualTo(new ControlWrite(blocked.file(), 0, 0));
        assertThat(writes.get("p1_high")).isEqualTo(new ControlWrite(high.file(), 0, 0));
    }

    @Test
    void aBlockedContainerStaysBlockedWhileTheHighPriorityOneIsActive() {
        var high = container("p1", "high", 0, 4, 0, A);
        var blocked = container("p2", "low", 1, -1, 1, A);

        var writes = byContainer(List.of(high, blocked));

        assertThat(writes).doesNotContainKey("p2_low"); // already -1 and 1: nothing to write
        assertThat(writes.get("p1_high").recentKernel()).isEqualTo(3);
    }

    @Test
    void twoActiveContainersOfOnePrioritySwitchUtilizationOnButBlockNothing() {
        var one = container("p1", "a", 1, 3, 0, A);
        var two = container("p2", "b", 1, 3, 0, A);

        var writes = byContainer(List.of(one, two));

        assertThat(writes.values()).extracting(ControlWrite::recentKernel).containsOnly(2);
        assertThat(writes.values()).extracting(ControlWrite::utilizationSwitch).containsOnly(1);
    }

    @Test
    void aContainerOnTwoDevicesIsBlockedByAHighPriorityOneOnEitherOfThem() {
        var high = container("p1", "high", 0, 3, 0, B);
        var low = container("p2", "low", 1, 3, 0, A, B);

        assertThat(byContainer(List.of(high, low)).get("p2_low").recentKernel()).isEqualTo(-1);
    }

    @Test
    void idleContainersWithSettledFieldsNeedNoWrite() {
        var idle = container("p1", "a", 0, 0, 0, A);
        var other = container("p2", "b", 1, 0, 0, A);

        assertThat(PriorityFeedback.decide(List.of(idle, other))).isEmpty();
    }

    @Test
    void aFreshRegionIsDecrementedAndItsSwitchTurnedOffWhenAlone() {
        // HAMi-core creates a region with recent_kernel 2 and utilization_switch 1.
        var fresh = container("p1", "a", 1, 2, 1, A);

        assertThat(PriorityFeedback.decide(List.of(fresh))).containsExactly(new ControlWrite(fresh.file(), 1, 0));
    }
}
