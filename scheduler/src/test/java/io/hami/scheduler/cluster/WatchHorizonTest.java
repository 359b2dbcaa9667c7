package io.hami.scheduler.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WatchHorizonTest {
    static final Duration NONE = Duration.ZERO;

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
        var waiter = CompletableFuture.supplyAsync(() -> horizon.reached("5", Duration.ofSeconds(30)));
        horizon.handled("4");
        horizon.handled("5");

        assertThat(waiter.get(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void whileTheInformerLagsMoreThanACallerWouldWaitCallersDoNotWaitAndWaitAgainOnceItCatchesUp() throws Exception {
        var horizon = new WatchHorizon();
        horizon.listed("1");
        assertThat(horizon.reached("2", Duration.ofMillis(10))).isFalse();
        Thread.sleep(1_000);
        horizon.handled("2"); // version 2 took a second to come through

        assertThat(horizon.lag()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        long start = System.nanoTime();
        assertThat(horizon.reached("3", Duration.ofMillis(500))).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(500));

        for (int v = 3; v < 60 && horizon.lag().compareTo(Duration.ofMillis(500)) > 0; v++) {
            horizon.reached(Integer.toString(v + 1), Duration.ofMillis(500)); // answered at once, still measured
            horizon.handled(Integer.toString(v + 1));
        }
        assertThat(horizon.lag()).isLessThan(Duration.ofMillis(500));
        var waiter = CompletableFuture.supplyAsync(() -> horizon.reached("100", Duration.ofSeconds(30)));
        Thread.sleep(50);
        horizon.handled("100");
        assertThat(waiter.get(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aWaiterGivesUpAtItsDeadline() {
        var horizon = new WatchHorizon();
        horizon.listed("1");

        assertThat(horizon.reached("2", Duration.ofMillis(50))).isFalse();
    }
}
