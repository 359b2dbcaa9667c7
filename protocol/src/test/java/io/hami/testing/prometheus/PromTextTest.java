package io.hami.testing.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PromTextTest {
    private static final String TEXT = """
            # HELP hami_x_total Things.
            # TYPE hami_x_total counter
            hami_x_total{node="n1",outcome="ok"} 3.0
            hami_x_total{node="n1",outcome="refused"} 1.0
            # HELP hami_y_seconds Latency.
            # TYPE hami_y_seconds histogram
            hami_y_seconds_bucket{le="0.1"} 2
            hami_y_seconds_bucket{le="+Inf"} 3
            hami_y_seconds_count 3
            hami_y_seconds_sum 0.7
            """;

    @Test
    void readsSamplesWithTheirLabels() {
        List<PromText.Sample> samples = PromText.parse(TEXT);
        assertThat(PromText.value(samples, "hami_x_total", "outcome", "refused"))
                .isEqualTo(1.0);
        assertThat(PromText.value(samples, "hami_y_seconds_bucket", "le", "+Inf"))
                .isEqualTo(3.0);
        assertThat(PromText.find(samples, "hami_x_total", "node", "n1")).hasSize(2);
    }

    @Test
    void aMissingOrAmbiguousSeriesFailsNamingIt() {
        List<PromText.Sample> samples = PromText.parse(TEXT);
        assertThatThrownBy(() -> PromText.value(samples, "hami_x_total"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("2 samples of hami_x_total");
        assertThatThrownBy(() -> PromText.value(samples, "hami_z"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("0 samples of hami_z");
    }

    @Test
    void aMalformedExpositionIsRejected() {
        assertThatThrownBy(() -> PromText.parse("hami_x_total{node=\"n1\" 3\n"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("rejected");
    }
}
