package io.hami.scheduler.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hami.protocol.testing.Patience;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class WatchHorizonTest {
    static final Duration NONE = Duration.ZERO;
    /** A waiter's own limit, and how long the test waits for its answer: only a lost wake-up takes that long. */
    static final Duration WAKE_WITHIN = Patience.seconds(30);
    /** An informer lag, on the test's clock. */
    static final Duration LAGGING = Duration.ofSeconds(40);
    /**
     * What a caller would wait: less than {@link #LAGGING}, more than any real stall of an answer given at once, and
     * at most {@link #WAKE_WITHIN}, so that a lag below it lets {@link #waiting} wait.
     */
    static final Duration PATIENT = Duration.ofSeconds(20);

    /**
     * A caller of {@code reached(version)} on a thread of its own, returned once it waits (parked with its deadline), so
     * that what follows wakes it rather than finding the version already reached.
     */
    static CompletableFuture<Boolean> waiting(WatchHorizon horizon, String version) {
        var answer = new CompletableFuture<Boolean>();
        Thread caller =
                Thread.ofPlatform().daemon().start(() -> answer.complete(horizon.reached(version, WAKE_WITHIN)));
        await(version + "'s caller waiting")
                .atMost(WAKE_WITHIN)
                .pollInterval(Duration.ofMillis(5))
                .until(() -> caller.getState() == Thread.State.TIMED_WAITING || answer.isDone());
        assertThat(answer).as("waits: " + version + " is not reached yet").isNotDone();
        return answer;
    }

    @Test
    void nothingIsReachedBeforeTheFirstListEnds() {
        var horizon = new WatchHorizon();
        horizon.handled("50"); // an object of the first list

        assertThat(horizon.reached("1", NONE)).isFalse();
        horizon.listed("40");
        assertThat(horizon.reached("40", NONE)).isTrue();
        assertThat(horizon.reached("41", NONE)).isFalse();
    }

    @Test
    void watchedChangesMoveItButAChangeHandedOverByARelistDoesNot() {
        var horizon = new WatchHorizon();
        horizon.listed("10");
        horizon.handled("12");
        assertThat(horizon.reached("12", NONE)).isTrue();

        horizon.listStarted();
        horizon.handled("30"); // relists hand objects over in any order: 25 may still be on its way
        assertThat(horizon.reached("25", NONE)).isFalse();
        horizon.listed("31");
        assertThat(horizon.reached("31", NONE)).isTrue();
    }

    @Test
    void itNeverMovesBackNorOnVersionsThatAreNotNumbers() {
        var horizon = new WatchHorizon();
        horizon.listed("20");
        horizon.handled("15");
        horizon.handled("opaque-7");
        assertThat(horizon.reached("20", NONE)).isTrue();
        assertThat(horizon.reached("opaque-7", NONE)).isFalse();
        assertThat(horizon.reached("", NONE)).isFalse();
        assertThat(horizon.reached(null, NONE)).isFalse();
    }

    @Test
    void aWaiterIsWokenByTheChangeItWaitsFor() throws Exception {
        var horizon = new WatchHorizon();
        horizon.listed("1");
        var waiter = waiting(horizon, "5");
        horizon.handled("4");
        horizon.handled("5");

        assertThat(waiter.get(WAKE_WITHIN.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    }

    @Test
    void whileTheInformerLagsMoreThanACallerWouldWaitCallersDoNotWaitAndWaitAgainOnceItCatchesUp() throws Exception {
        // The lag is measured on this clock, moved by hand; waits still take real time.
        var now = new AtomicLong();
        var horizon = new WatchHorizon(now::get);
        horizon.listed("1");
        assertThat(horizon.reached("2", Duration.ofMillis(10))).isFalse();
        now.addAndGet(LAGGING.toNanos());
        horizon.handled("2"); // version 2 took that long to come through

        assertThat(horizon.lag()).isEqualTo(LAGGING);
        long start = System.nanoTime();
        assertThat(horizon.reached("3", PATIENT)).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start))
                .as("answered at once, not after waiting its %s", PATIENT)
                .isLessThan(PATIENT);

        for (int v = 3; v < 60 && horizon.lag().compareTo(PATIENT) > 0; v++) {
            horizon.reached(Integer.toString(v + 1), PATIENT); // answered at once, still measured
            horizon.handled(Integer.toString(v + 1));
        }
        assertThat(horizon.lag()).isLessThan(PATIENT);
        var waiter = waiting(horizon, "100");
        horizon.handled("100");
        assertThat(waiter.get(WAKE_WITHIN.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
    }

    @Test
    void aWaiterGivesUpAtItsDeadline() {
        var horizon = new WatchHorizon();
        horizon.listed("1");

        assertThat(horizon.reached("2", Duration.ofMillis(50))).isFalse();
    }
}
