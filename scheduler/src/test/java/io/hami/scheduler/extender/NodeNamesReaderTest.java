package io.hami.scheduler.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** NodeNames read from a body: each name once, and the list of the last body again when its bytes are the same. */
class NodeNamesReaderTest {
    static ExtenderArgs read(String json) throws ExtenderJson.BadBodyException {
        return ExtenderJson.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), ExtenderArgs.class);
    }

    static String body(String pod, String names) {
        return "{\"Pod\":{\"metadata\":{\"name\":\"" + pod + "\"}},\"Nodes\":null,\"NodeNames\":" + names + "}";
    }

    @Test
    void theSameListIsReadOnceAndADifferentOneAfreshEvenOfTheSameLength() throws Exception {
        List<String> first =
                read(body("p1", "[\"node-a\",\"node-b\",\"node-c\"]")).nodeNames();
        var next = read(body("p2-with-a-longer-name", "[\"node-a\",\"node-b\",\"node-c\"]"));

        assertThat(next.pod().getMetadata().getName()).isEqualTo("p2-with-a-longer-name");
        assertThat(next.nodeNames()).as("the same bytes elsewhere in the body").isSameAs(first);

        List<String> other =
                read(body("p3", "[\"node-a\",\"node-x\",\"node-c\"]")).nodeNames();
        assertThat(other).isNotSameAs(first).containsExactly("node-a", "node-x", "node-c");
        List<String> shorter = read(body("p4", "[\"node-a\",\"node-x\"]")).nodeNames();
        assertThat(shorter).containsExactly("node-a", "node-x");
        assertThat(read(body("p5", "[\"node-a\",\"node-x\",\"node-c\"]")).nodeNames())
                .as("the last list, not an earlier one")
                .isNotSameAs(other)
                .containsExactly("node-a", "node-x", "node-c");
    }

    @Test
    void aListThatBeginsAsTheLastOneButGoesOnIsReadWhole() throws Exception {
        List<String> first = read(body("p1", "[\"a\",\"b\"]")).nodeNames();
        // the last list's bytes, "[\"a\",\"b\"]", are not its whole text here
        assertThat(read(body("p2", "[\"a\",\"b\"]")).nodeNames()).isSameAs(first);
        assertThat(read(body("p3", "[\"a\",\"b\" ,\"c\"]")).nodeNames()).containsExactly("a", "b", "c");
        assertThat(read("{\"NodeNames\":[\"a\",\"b\"],\"Pod\":{\"metadata\":{\"name\":\"p4\"}}}")
                        .nodeNames())
                .containsExactly("a", "b");
    }

    @Test
    void repeatedNamesAreKeptOnceInFirstSeenOrderAndTheListCannotBeChanged() throws Exception {
        List<String> names =
                read(body("p", "[\"b\",\"a\",\"b\",null,\"c\",\"a\",null]")).nodeNames();

        assertThat(names).containsExactly("b", "a", null, "c");
        assertThatThrownBy(() -> names.add("d")).isInstanceOf(UnsupportedOperationException.class);
        assertThat(read(body("p", "null")).nodeNames()).isNull();
        assertThat(read("{\"Pod\":{}}").nodeNames()).isNull();
    }

    @Test
    void aBadListIsToldAsBeforeAndDoesNotReplaceTheLastOne() throws Exception {
        List<String> good = read(body("p", "[\"n1\",\"n2\"]")).nodeNames();

        assertThatThrownBy(() -> read(body("p", "[\"n1\",{\"x\":1}]")))
                .isInstanceOf(ExtenderJson.BadBodyException.class)
                .hasMessageStartingWith("malformed ExtenderArgs: field NodeNames[1]: expected a string");
        assertThatThrownBy(() -> read(body("p", "{\"n1\":1}")))
                .hasMessageStartingWith("malformed ExtenderArgs: field NodeNames: expected a list");
        assertThat(read(body("p", "[\"n1\",\"n2\"]")).nodeNames()).isSameAs(good);
    }
}
