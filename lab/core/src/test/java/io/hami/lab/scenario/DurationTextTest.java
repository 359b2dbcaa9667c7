package io.hami.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {
    @Test
    void readsUnitsAndSums() {
        assertThat(DurationText.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(DurationText.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(DurationText.parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(DurationText.parse("2h")).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void rejectsTextThatIsNotWhollyADuration() {
        assertThatThrownBy(() -> DurationText.parse("20")).hasMessageContaining("\"20\" is not a duration");
        assertThatThrownBy(() -> DurationText.parse("5s later")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DurationText.parse("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void formatsTheShortestForm() {
        assertThat(DurationText.format(Duration.ofMillis(250))).isEqualTo("250ms");
        assertThat(DurationText.format(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(DurationText.format(Duration.ofSeconds(90))).isEqualTo("1m30s");
        assertThat(DurationText.format(Duration.ofMinutes(2))).isEqualTo("2m");
    }
}
