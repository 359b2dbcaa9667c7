package io.hami.scheduler.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class EventGateTest {
    final EventRecorderTest.ManualClock clock = new EventRecorderTest.ManualClock();

    @Test
    void aPodAndOutcomeIsWrittenOnceThenRepeatedOnlyAfterTheRepeatTime() {
        var gate = new EventGate(clock, Duration.ofMinutes(15), 100, 10, 10);

        assertThat(gate.admit("uid-1", "fail")).isEqualTo(EventGate.Verdict.WRITE);
        assertThat(gate.admit("uid-1", "fail")).isEqualTo(EventGate.Verdict.REPEAT);
        assertThat(gate.admit("uid-1", "fit")).isEqualTo(EventGate.Verdict.WRITE);
        clock.now = clock.now.plus(Duration.ofMinutes(15)).minusNanos(1);
        assertThat(gate.admit("uid-1", "fail")).isEqualTo(EventGate.Verdict.REPEAT);
        clock.now = clock.now.plusNanos(1);
        assertThat(gate.admit("uid-1", "fail")).isEqualTo(EventGate.Verdict.WRITE);
    }

    @Test
    void beyondTheBurstEventsWaitForTheRateAndALimitedOneIsNotRememberedAsWritten() {
        var gate = new EventGate(clock, Duration.ofMinutes(15), 100, 2, 3);
        for (int i = 0; i < 3; i++) {
            assertThat(gate.admit("uid-" + i, "fail")).isEqualTo(EventGate.Verdict.WRITE);
        }
        assertThat(gate.admit("uid-3", "fail")).isEqualTo(EventGate.Verdict.RATE_LIMITED);
        assertThat(gate.admit("uid-3", "fail")).isEqualTo(EventGate.Verdict.RATE_LIMITED);

        clock.now = clock.now.plusMillis(500); // one token at 2 per second
        assertThat(gate.admit("uid-3", "fail")).isEqualTo(EventGate.Verdict.WRITE);
        assertThat(gate.admit("uid-4", "fail")).isEqualTo(EventGate.Verdict.RATE_LIMITED);
        clock.now = clock.now.plusSeconds(60); // refills up to the burst, not beyond
        for (int i = 4; i < 7; i++) {
            assertThat(gate.admit("uid-" + i, "fail")).isEqualTo(EventGate.Verdict.WRITE);
        }
        assertThat(gate.admit("uid-7", "fail")).isEqualTo(EventGate.Verdict.RATE_LIMITED);
    }

    @Test
    void onlyTheMostRecentPodsAreRemembered() {
        var gate = new EventGate(clock, Duration.ofMinutes(15), 2, 1000, 1000);
        gate.admit("a", "fit");
        gate.admit("b", "fit");
        gate.admit("a", "fit"); // a is now more recent than b
        gate.admit("c", "fit"); // forgets b

        assertThat(gate.admit("a", "fit")).isEqualTo(EventGate.Verdict.REPEAT);
        assertThat(gate.admit("b", "fit")).isEqualTo(EventGate.Verdict.WRITE);
    }
}
