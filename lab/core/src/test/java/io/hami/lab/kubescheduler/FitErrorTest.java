package io.hami.lab.kubescheduler;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import org.junit.jupiter.api.Test;

class FitErrorTest {
    @Test
    void groupsTheExtendersReasonsMostFrequentFirst() {
        var failed = new LinkedHashMap<String, String>();
        failed.put("a", "CardInsufficientMemory");
        failed.put("b", "NodeInsufficientDevice");
        failed.put("c", "NodeInsufficientDevice");

        assertThat(FitError.message(3, failed))
                .isEqualTo("0/3 nodes are available: 2 NodeInsufficientDevice, 1 CardInsufficientMemory.");
        assertThat(FitError.message(0, new LinkedHashMap<>())).isEqualTo("0/0 nodes are available.");
    }

    @Test
    void backoffDoublesUpToItsMaximum() {
        Backoff b = Backoff.KUBE_SCHEDULER;

        assertThat(b.after(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(b.after(3)).isEqualTo(Duration.ofSeconds(4));
        assertThat(b.after(9)).isEqualTo(Duration.ofSeconds(10));
        assertThat(Backoff.LOCK_CONTENTION.after(2)).isEqualTo(Duration.ofMillis(200));
    }
}
