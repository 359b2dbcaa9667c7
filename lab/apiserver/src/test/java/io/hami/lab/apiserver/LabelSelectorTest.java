package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The label selector grammar and semantics of apimachinery {@code labels.Parse}. */
class LabelSelectorTest {

    private static final Map<String, String> LABELS = Map.of("vendor", "nvidia", "hami.io/gpu-count", "4", "empty", "");

    @ParameterizedTest(name = "''{0}'' matches: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "''                                  | true",
                "vendor                              | true",
                "!vendor                             | false",
                "!absent                             | true",
                "vendor=nvidia                       | true",
                "vendor==nvidia                      | true",
                "vendor = nvidia                     | true",
                "vendor!=nvidia                      | false",
                "absent!=x                           | true",
                "empty=                              | true",
                "vendor in (nvidia,hygon)            | true",
                "vendor in (hygon)                   | false",
                "vendor notin (nvidia)               | false",
                "absent notin (x)                    | true",
                "absent in (x)                       | false",
                "hami.io/gpu-count>3                 | true",
                "hami.io/gpu-count<4                 | false",
                "vendor>1                            | false",
                "vendor in (nvidia), !absent, empty  | true",
                "vendor in (nvidia),vendor notin (nvidia) | false"
            })
    void evaluatesLikeTheApiServer(String selector, boolean matches) {
        assertThat(LabelSelector.parse(selector).matches(LABELS)).isEqualTo(matches);
    }

    @ParameterizedTest
    @ValueSource(strings = {"vendor in ()", "vendor in (a", "a,,b", "=v", "-bad=v", "k=v v", "k>x", "k in (a b)"})
    void rejectsMalformedSelectors(String selector) {
        assertThatThrownBy(() -> LabelSelector.parse(selector))
                .isInstanceOf(BadRequestException.class)
                .hasMessageContaining("unable to parse requirement");
    }
}
