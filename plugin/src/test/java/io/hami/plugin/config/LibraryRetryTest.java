package io.hami.plugin.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The wait between tries of an unusable vendor library, and when its Warning event is written again. */
class LibraryRetryTest {
    private static final Instant T0 = Instant.parse("2026-08-21T10:00:00Z");

    @Test
    void theWaitDoublesFromTenSecondsAndStopsAtFiveMinutes() {
        assertThat(IntStream.rangeClosed(1, 8)
                        .mapToObj(LibraryRetry.DEFAULTS::delayAfter)
                        .map(Duration::toSeconds)
                        .toList())
                .containsExactly(10L, 20L, 40L, 80L, 160L, 300L, 300L, 300L);
        // no overflow however long the library stays broken
        assertThat(LibraryRetry.DEFAULTS.delayAfter(Integer.MAX_VALUE)).isEqualTo(Duration.ofMinutes(5));
    }

    @Test
    void aMaximumUnderTheFirstWaitOrANonPositiveWaitIsRefused() {
        assertThatThrownBy(() -> new LibraryRetry(Duration.ofMinutes(1), Duration.ofSeconds(30), Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the longest library retry wait PT30S is under the first PT1M");
        assertThatThrownBy(() -> new LibraryRetry(Duration.ZERO, Duration.ofSeconds(30), Duration.ofHours(1)))
                .hasMessage("the first library retry wait must be positive: PT0S");
        assertThatThrownBy(() -> LibraryRetry.DEFAULTS.delayAfter(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSameCauseIsReportedAgainOnlyAfterTheRepeatTimeAndANewCauseAtOnce() {
        LibraryRetry r = LibraryRetry.DEFAULTS;
        assertThat(r.eventDue(null, null, "truncated", T0)).isTrue();
        assertThat(r.eventDue("truncated", T0, "truncated", T0.plusSeconds(10))).isFalse();
        assertThat(r.eventDue(
                        "truncated",
                        T0,
                        "truncated",
                        T0.plus(Duration.ofMinutes(30)).minusMillis(1)))
                .isFalse();
        assertThat(r.eventDue("truncated", T0, "truncated", T0.plus(Duration.ofMinutes(30))))
                .isTrue();
        assertThat(r.eventDue("truncated", T0, "not found", T0.plusSeconds(10))).isTrue();
    }
}
