package io.hami.lab.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.JsonNode;

/** RFC 7386, Appendix A (every example), and the strategic-merge directives kubectl adds. */
class JsonMergePatchTest {

    private static JsonNode json(String text) {
        return Json.parse(text);
    }

    @ParameterizedTest(name = "{0} + {1} = {2}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '`',
            value = {
                "{\"a\":\"b\"}                | {\"a\":\"c\"}                   | {\"a\":\"c\"}",
                "{\"a\":\"b\"}                | {\"b\":\"c\"}                   | {\"a\":\"b\",\"b\":\"c\"}",
                "{\"a\":\"b\"}                | {\"a\":null}                    | {}",
                "{\"a\":\"b\",\"b\":\"c\"}    | {\"a\":null}                    | {\"b\":\"c\"}",
                "{\"a\":[\"b\"]}              | {\"a\":\"c\"}                   | {\"a\":\"c\"}",
                "{\"a\":\"c\"}                | {\"a\":[\"b\"]}                 | {\"a\":[\"b\"]}",
                "{\"a\":{\"b\":\"c\"}}        | {\"a\":{\"b\":\"d\",\"c\":null}} | {\"a\":{\"b\":\"d\"}}",
                "{\"a\":[{\"b\":\"c\"}]}      | {\"a\":[1]}                     | {\"a\":[1]}",
                "[\"a\",\"b\"]                | [\"c\",\"d\"]                   | [\"c\",\"d\"]",
                "{\"a\":\"b\"}                | [\"c\"]                         | [\"c\"]",
                "{\"a\":\"foo\"}              | null                            | null",
                "{\"a\":\"foo\"}              | \"bar\"                         | \"bar\"",
                "{\"e\":null}                 | {\"a\":1}                       | {\"e\":null,\"a\":1}",
                "[1,2]                        | {\"a\":\"b\",\"c\":null}        | {\"a\":\"b\"}",
                "{}                           | {\"a\":{\"bb\":{\"ccc\":null}}} | {\"a\":{\"bb\":{}}}"
            })
    void rfc7386AppendixA(String original, String patch, String result) {
        assertThat(JsonMergePatch.apply(json(original), json(patch))).isEqualTo(json(result));
    }

    @Test
    void applyLeavesItsArgumentsUnchanged() {
        JsonNode original = json("{\"a\":{\"b\":1}}");
        JsonNode patch = json("{\"a\":{\"b\":null,\"c\":2}}");

        JsonMergePatch.apply(original, patch);

        assertThat(original).isEqualTo(json("{\"a\":{\"b\":1}}"));
        assertThat(patch).isEqualTo(json("{\"a\":{\"b\":null,\"c\":2}}"));
    }

    @Test
    void strategicDirectivesAreDroppedAtAnyDepth() {
        JsonNode patch = json("{\"$retainKeys\":[\"a\"],\"metadata\":{\"labels\":{\"x\":\"y\",\"gone\":null}},"
                + "\"spec\":{\"$setElementOrder/containers\":[{\"name\":\"main\"}],"
                + "\"containers\":[{\"$patch\":\"replace\",\"name\":\"main\",\"image\":\"busybox:2\"}]}}");

        assertThat(JsonMergePatch.withoutStrategicDirectives(patch))
                .isEqualTo(json("{\"metadata\":{\"labels\":{\"x\":\"y\",\"gone\":null}},"
                        + "\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"busybox:2\"}]}}"));
    }
}
