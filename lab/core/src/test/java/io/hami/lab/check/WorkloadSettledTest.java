package io.hami.lab.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WorkloadSettledTest {
    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final WorkloadSettled QUIET =
            new WorkloadSettled(true, true, 0, 0, 0, 0, Duration.ofSeconds(3), SETTLE);

    @Test
    void aQuietClusterWithNothingLeftHasSettled() {
        assertThat(QUIET.settled()).isTrue();
        assertThat(QUIET.moving()).isEmpty();
    }

    @Test
    void eachThingStillMovingIsNamed() {
        var moving = new WorkloadSettled(false, false, 1, 2, 3, 4, Duration.ZERO, SETTLE);

        assertThat(moving.settled()).isFalse();
        assertThat(moving.moving())
                .containsExactly(
                        "pods still to be submitted",
                        "faults still to be injected",
                        "1 pod in kube-scheduler's hands",
                        "2 pods pending",
                        "3 pods allocating",
                        "4 pods running with a lifetime left");
    }

    @Test
    void aClusterThatChangedWithinTheSettleTimeHasNotSettledYet() {
        var recent = new WorkloadSettled(true, true, 0, 0, 0, 0, Duration.ofSeconds(1), SETTLE);

        assertThat(recent.moving()).containsExactly("the cluster changed 1s ago (settle: 3s)");
    }

    @Test
    void aRunStoppedByItsTimeoutFailsTheSettledInvariantSayingWhatWasLeft() {
        var left = new WorkloadSettled(true, true, 0, 2, 0, 0, Duration.ZERO, SETTLE);

        Invariant failed = WorkloadSettled.invariant(Duration.ofMinutes(5), left);
        Invariant held = WorkloadSettled.invariant(Duration.ofMinutes(5), null);

        assertThat(failed.holds()).isFalse();
        assertThat(failed.name()).isEqualTo("settled");
        assertThat(failed.violations()).containsExactly("the timeout of 5m was reached with 2 pods pending");
        assertThat(held.holds()).isTrue();
        assertThat(held.statement()).isEqualTo("the workload settled before the scenario's timeout of 5m");
    }
}
