package io.hami.protocol.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PatienceTest {
    @Test
    void thePropertyWinsOverTheEnvironmentAndNeitherMeansOne() {
        assertThat(Patience.factor(null, null)).isEqualTo(1);
        assertThat(Patience.factor(" ", "")).isEqualTo(1);
        assertThat(Patience.factor(null, "2.5")).isEqualTo(2.5);
        assertThat(Patience.factor("3", "2.5")).isEqualTo(3);
    }

    @Test
    void aFactorBelowOneOrNotANumberIsRefused() {
        assertThatThrownBy(() -> Patience.factor("0.5", null)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> Patience.factor("NaN", null)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> Patience.factor("slow", null)).hasMessageContaining("must be a number");
    }
}
