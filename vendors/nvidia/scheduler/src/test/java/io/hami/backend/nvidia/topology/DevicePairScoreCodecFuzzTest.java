package io.hami.backend.nvidia.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.CodecInputs;
import io.hami.protocol.codec.GoJsonOracle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code hami.io/node-nvidia-score}: Go's {@code json.Marshal} of upstream's plugin-side {@code ListDeviceScore}
 * (fields {@code uuid}, {@code score}, no omitempty), and a strict decoder. The oracle below is written from Go's rules,
 * not from the codec.
 */
class DevicePairScoreCodecFuzzTest {

    // ---- a test-side model of Go's encoding/json for this type --------------------------------

    /** Go sorts a map's keys as byte strings, i.e. by UTF-8. */
    private static String marshal(List<DevicePairScore> scores) {
        var b = new StringBuilder("[");
        for (int n = 0; n < scores.size(); n++) {
            DevicePairScore s = scores.get(n);
            var members = new ArrayList<String>();
            members.add("\"uuid\":" + GoJsonOracle.quote(s.uuid()));
            var keys = new ArrayList<>(s.score().keySet());
            keys.sort((x, y) ->
                    Arrays.compareUnsigned(x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8)));
            var pairs = new ArrayList<String>();
            for (String k : keys) {
                pairs.add(GoJsonOracle.quote(k) + ":" + s.score().get(k));
            }
            members.add("\"score\":{" + String.join(",", pairs) + "}");
            b.append(n > 0 ? "," : "")
                    .append('{')
                    .append(String.join(",", members))
                    .append('}');
        }
        return b.append(']').toString();
    }

    /** Valid lists: non-empty distinct UUIDs, scores non-negative int32s. */
    private static List<DevicePairScore> lists(FuzzedDataProvider data) {
        int n = data.consumeInt(0, 8);
        var uuids = new LinkedHashSet<String>();
        for (int i = 0; i < n; i++) {
            uuids.add(data.consumeBoolean() ? "GPU-" + i : CodecInputs.text(data, 1, 12, cp -> true));
        }
        var out = new ArrayList<DevicePairScore>();
        for (String uuid : uuids) {
            var score = new LinkedHashMap<String, Integer>();
            int peers = data.consumeInt(0, 6);
            for (int p = 0; p < peers; p++) {
                String peer = data.consumeBoolean() ? "GPU-" + p : CodecInputs.anyText(data);
                score.put(peer, CodecInputs.uint31(data));
            }
            out.add(new DevicePairScore(uuid, score));
        }
        return out;
    }

    @FuzzTest
    void decodeOfEncodeGivesTheSameList(FuzzedDataProvider data) throws Exception {
        List<DevicePairScore> scores = lists(data);
        assertThat(DevicePairScoreCodec.decode(DevicePairScoreCodec.encode(scores)))
                .isEqualTo(scores);
    }

    @FuzzTest
    void encodeIsWhatGoMarshalWrites(FuzzedDataProvider data) {
        List<DevicePairScore> scores = lists(data);
        assertThat(DevicePairScoreCodec.encode(scores)).isEqualTo(marshal(scores));
    }

    /** Any text: a list or an AnnotationFormatException, never another exception; what decodes re-encodes stably. */
    @FuzzTest
    void decodeIsTotal(FuzzedDataProvider data) {
        String value = data.consumeRemainingAsString();
        List<DevicePairScore> decoded;
        try {
            decoded = DevicePairScoreCodec.decode(value);
        } catch (AnnotationFormatException e) {
            assertThat(e.getMessage()).isNotBlank().doesNotContain("Exception").doesNotContain("io.hami");
            return;
        }
        String encoded = DevicePairScoreCodec.encode(decoded);
        try {
            assertThat(DevicePairScoreCodec.decode(encoded)).isEqualTo(decoded);
        } catch (AnnotationFormatException e) {
            throw new AssertionError("re-encoded " + encoded + " does not decode: " + e.getMessage(), e);
        }
    }

    // ---- exact bytes ----------------------------------------------------------------------------

    @Test
    void upstreamsExampleIsWrittenByteForByte() throws Exception {
        String upstream = "[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":100}}]";
        var scores = List.of(new DevicePairScore("GPU-0", Map.of("GPU-1", 100)));
        assertThat(DevicePairScoreCodec.encode(scores)).isEqualTo(upstream);
        assertThat(DevicePairScoreCodec.decode(upstream)).isEqualTo(scores);
    }

    @Test
    void peersAreSortedByTheirBytesAndEntriesKeepTheirOrder() {
        var first = new LinkedHashMap<String, Integer>();
        first.put("GPU-b", 2);
        first.put("GPU-a", 1);
        first.put("GPU-\uFFFD", 4); // UTF-8 EF BF BD sorts before F0 9F 98 80, unlike in UTF-16
        first.put("GPU-\uD83D\uDE00", 3);
        var scores = List.of(new DevicePairScore("GPU-z", first), new DevicePairScore("GPU-a", Map.of()));
        assertThat(DevicePairScoreCodec.encode(scores))
                .isEqualTo("[{\"uuid\":\"GPU-z\",\"score\":{\"GPU-a\":1,\"GPU-b\":2,\"GPU-\uFFFD\":4,"
                        + "\"GPU-\uD83D\uDE00\":3}},{\"uuid\":\"GPU-a\",\"score\":{}}]");
    }

    @Test
    void emptyListAndNull() throws Exception {
        assertThat(DevicePairScoreCodec.encode(List.of())).isEqualTo("[]");
        assertThat(DevicePairScoreCodec.decode("[]")).isEmpty();
        assertThat(DevicePairScoreCodec.decode("null")).isEmpty();
    }

    @Test
    void goReadsFieldNamesCaseInsensitivelyAndIgnoresUnknownOnes() throws Exception {
        assertThat(
                        DevicePairScoreCodec.decode(
                                " [ {\"UUID\":\"GPU-0\",\"Score\":{\"GPU-1\":7},\"links\":[1,{\"x\":null}]},{\"uuid\":\"GPU-1\",\"score\":null} ] "))
                .containsExactly(
                        new DevicePairScore("GPU-0", Map.of("GPU-1", 7)), new DevicePairScore("GPU-1", Map.of()));
    }

    // ---- errors ---------------------------------------------------------------------------------

    private static void rejected(String value, String... parts) {
        var thrown = assertThatThrownBy(() -> DevicePairScoreCodec.decode(value))
                .as(value)
                .isInstanceOf(AnnotationFormatException.class);
        for (String part : parts) {
            thrown.hasMessageContaining(part);
        }
    }

    @Test
    void badJsonAndShapesAreErrors() {
        rejected("", "empty");
        rejected("[{\"uuid\":\"GPU-0\"}", "invalid JSON");
        rejected("[]x", "invalid JSON");
        rejected("{}", "must be a JSON array, got object");
        rejected("[5]", "entry 0 must be a JSON object, got number");
        rejected("[{\"uuid\":\"GPU-0\",\"score\":[1]}]", "invalid score field in entry 0", "[1]");
        rejected("[{\"uuid\":7}]", "invalid uuid field in entry 0: 7 (want a string)");
    }

    @Test
    void aMissingOrEmptyUuidIsAnError() {
        rejected("[{\"score\":{\"GPU-1\":1}}]", "entry 0 has no uuid");
        rejected("[{\"uuid\":\"GPU-0\"},{\"uuid\":\"\"}]", "entry 1 has no uuid");
        rejected("[{\"uuid\":null}]", "entry 0 has no uuid");
        rejected("[null]", "entry 0 must be a JSON object, got null");
    }

    @Test
    void scoresMustBeNonNegativeInt32s() {
        String want = "(want a whole number from 0 to 2147483647)";
        rejected(
                "[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":1.5}}]",
                "invalid score for peer \"GPU-1\" in entry 0: 1.5",
                want);
        rejected("[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":1.0}}]", "1.0");
        rejected("[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":\"100\"}}]", "\"100\"");
        rejected("[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":-1}}]", "-1", want);
        rejected("[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":2147483648}}]", "2147483648");
        rejected("[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":null}}]", "null");
        rejected("[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":true}}]", "true");
    }

    @Test
    void duplicatesAreErrors() {
        rejected(
                "[{\"uuid\":\"GPU-0\"},{\"uuid\":\"GPU-1\"},{\"uuid\":\"GPU-0\"}]",
                "duplicate uuid \"GPU-0\" in entry 2");
        rejected("[{\"uuid\":\"GPU-0\",\"score\":{\"GPU-1\":1,\"GPU-1\":2}}]", "GPU-1", "uplicate");
        rejected("[{\"uuid\":\"GPU-0\",\"UUID\":\"GPU-1\"}]", "uuid given twice in entry 0");
        rejected("[{\"uuid\":\"GPU-0\",\"score\":{},\"Score\":{}}]", "score given twice in entry 0");
        // two peers that only differ in an invalid surrogate read as the same peer
        rejected("[{\"uuid\":\"GPU-0\",\"score\":{\"a\\ud800\":1,\"a\\udc00\":2}}]", "duplicate peer");
    }

    @Test
    void messagesNameNoJavaClass() {
        for (String bad :
                List.of("[", "[{\"uuid\":\"a\",\"uuid\":\"b\"}]", "[{\"uuid\":\"a\",\"score\":{\"b\":1e99}}]")) {
            assertThatThrownBy(() -> DevicePairScoreCodec.decode(bad))
                    .isInstanceOf(AnnotationFormatException.class)
                    .message()
                    .doesNotContain("Exception")
                    .doesNotContain("tools.jackson");
        }
    }
}
