package io.hami.scheduler.fit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScoringWeightsTest {

    @Test
    void parsesThreeWeightsInAnyOrderWithSpaces() throws Exception {
        assertThat(ScoringWeights.parse(" memory = 3, slot=0 ,core=2")).isEqualTo(new ScoringWeights(0, 2, 3));
        assertThat(ScoringWeights.of(Map.of())).isEqualTo(ScoringWeights.DEFAULT);
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "slot=1,core=1|expected slot, core, and memory weights",
                "slot=1,core=1,memory|expected key=value entries",
                "slot=1,core=x,memory=1|\"core\" weight must be an integer",
                "slot=1,core=-1,memory=1|\"core\" weight must not be negative",
                "slot=1,cores=1,memory=1|unknown weight \"cores\"",
                "slot=1,slot=1,memory=1|duplicate \"slot\" weight",
                "slot=0,core=0,memory=0|at least one weight must be positive",
            })
    void rejectsWithUpstreamsErrorTexts(String value, String message) {
        assertThatThrownBy(() -> ScoringWeights.parse(value))
                .isInstanceOf(ScoringWeights.InvalidWeightsException.class)
                .hasMessageContaining(message)
                .hasMessageStartingWith("invalid hami.io/device-scoring-weights: ");
    }
}
