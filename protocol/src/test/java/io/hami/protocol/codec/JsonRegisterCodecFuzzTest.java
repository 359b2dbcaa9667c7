package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hami.protocol.device.DeviceInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The NVIDIA register value (design D2 in docs/design.md#d2, docs/upstream.md#json-register): JSON byte-compatible
 * with Go's encoding/json.
 */
class JsonRegisterCodecFuzzTest {

    /** Device lists, each device with MIG profiles drawn after the list (so the device draws stay as they were). */
    private static List<DeviceInfo> lists(FuzzedDataProvider data) {
        var devices = new ArrayList<DeviceInfo>();
        for (DeviceInfo d : CodecInputs.deviceLists(data, CodecInputs::anyText, 6)) {
            devices.add(new DeviceInfo(
                    d.id(),
                    d.index(),
                    d.count(),
                    d.devmem(),
                    d.devcore(),
                    d.type(),
                    d.numa(),
                    d.mode(),
                    d.health(),
                    CodecInputs.migProfileLists(data, CodecInputs::anyText)));
        }
        return devices;
    }

    private static List<DeviceInfo> sortedByIndex(List<DeviceInfo> devices) {
        return devices.stream()
                .sorted(Comparator.comparingInt(DeviceInfo::index))
                .toList();
    }

    @FuzzTest
    void decodeOfEncodeGivesTheDevicesSortedByIndex(FuzzedDataProvider data) throws Exception {
        List<DeviceInfo> devices = lists(data);
        assertThat(JsonRegisterCodec.decode(JsonRegisterCodec.encode(devices))).isEqualTo(sortedByIndex(devices));
    }

    @FuzzTest
    void encodeIsWhatGoMarshalWrites(FuzzedDataProvider data) {
        List<DeviceInfo> devices = lists(data);
        assertThat(JsonRegisterCodec.encode(devices)).isEqualTo(GoJsonOracle.marshal(sortedByIndex(devices)));
    }

    @FuzzTest
    void canonicalValuesReencodeByteForByte(FuzzedDataProvider data) throws Exception {
        List<DeviceInfo> devices = lists(data);
        String canonical = GoJsonOracle.marshal(sortedByIndex(devices));
        assertThat(JsonRegisterCodec.encode(JsonRegisterCodec.decode(canonical)))
                .isEqualTo(canonical);
    }

    @FuzzTest
    void anythingGoReadsTheSameWayDecodesTheSame(FuzzedDataProvider data) throws Exception {
        List<DeviceInfo> devices = lists(data);
        long seed = data.consumeLong();
        String noisy = GoJsonOracle.noisy(devices, new Random(seed));
        assertThat(JsonRegisterCodec.decode(noisy)).as(noisy).isEqualTo(devices);
    }

    @FuzzTest
    void encodingDoesNotDependOnInputOrder(FuzzedDataProvider data) {
        List<DeviceInfo> devices = lists(data);
        long seed = data.consumeLong();
        var shuffled = new java.util.ArrayList<>(devices);
        java.util.Collections.shuffle(shuffled, new Random(seed));
        assertThat(JsonRegisterCodec.encode(shuffled)).isEqualTo(JsonRegisterCodec.encode(devices));
    }

    // ---- Go specifics, from Go's documented behaviour -------------------------------------------

    private static DeviceInfo only(String id) {
        return new DeviceInfo(id, 0, 0, 0, 0, "", 0, "", false);
    }

    @Test
    void allZeroDeviceIsAnEmptyObject() {
        assertThat(JsonRegisterCodec.encode(List.of(only("")))).isEqualTo("[{}]");
    }

    @Test
    void keysAreWrittenInGoFieldOrder() {
        var d = new DeviceInfo("i", 1, 2, 3, 4, "t", 5, "m", true);
        assertThat(JsonRegisterCodec.encode(List.of(d)))
                .isEqualTo(
                        "[{\"id\":\"i\",\"index\":1,\"count\":2,\"devmem\":3,\"devcore\":4,\"type\":\"t\",\"numa\":5,\"mode\":\"m\",\"health\":true}]");
    }

    @Test
    void negativeNumbersAreNotZeroAndAreWritten() {
        var d = new DeviceInfo("", 0, -1, Integer.MIN_VALUE, -3, "", -1, "", false);
        assertThat(JsonRegisterCodec.encode(List.of(d)))
                .isEqualTo("[{\"count\":-1,\"devmem\":-2147483648,\"devcore\":-3,\"numa\":-1}]");
    }

    @Test
    void htmlAndLineSeparatorsAreEscaped() {
        assertThat(JsonRegisterCodec.encode(List.of(only("<>&\u2028\u2029"))))
                .isEqualTo("[{\"id\":\"\\u003c\\u003e\\u0026\\u2028\\u2029\"}]");
    }

    @Test
    void controlCharactersAreEscapedLikeGo() {
        assertThat(JsonRegisterCodec.encode(List.of(only("\n\r\t\b\f\u0000\u0001\u001f\u007f\"\\/"))))
                .isEqualTo("[{\"id\":\"\\n\\r\\t\\b\\f\\u0000\\u0001\\u001f\u007f\\\"\\\\/\"}]");
    }

    @Test
    void nonAsciiIsWrittenRaw() {
        assertThat(JsonRegisterCodec.encode(List.of(only("é漢\uD83D\uDE00\u00a0"))))
                .isEqualTo("[{\"id\":\"é漢\uD83D\uDE00\u00a0\"}]");
    }

    @Test
    void loneSurrogatesAreWrittenAsReplacementCharacter() {
        // Go writes invalid UTF-8 as U+FFFD.
        assertThat(JsonRegisterCodec.encode(List.of(only("a\uD800b\uDC00"))))
                .isEqualTo("[{\"id\":\"a\uFFFDb\uFFFD\"}]");
    }

    @Test
    void escapedLoneSurrogatesReadAsReplacementCharacter() throws Exception {
        // Go's decoder turns a \\u escape of a lone surrogate into U+FFFD.
        assertThat(JsonRegisterCodec.decode("[{\"id\":\"a\\ud800b\\udc00\"}]")).containsExactly(only("a\uFFFDb\uFFFD"));
        assertThat(JsonRegisterCodec.decode("[{\"id\":\"\\ud83d\\ude00\"}]")).containsExactly(only("\uD83D\uDE00"));
    }

    @Test
    void keysMatchCaseInsensitively() throws Exception {
        assertThat(
                        JsonRegisterCodec.decode(
                                "[{\"ID\":\"GPU-1\",\"Index\":2,\"COUNT\":3,\"DevMem\":4,\"devCore\":5,\"TYPE\":\"t\",\"NUMA\":6,\"Mode\":\"m\",\"Health\":true}]"))
                .containsExactly(new DeviceInfo("GPU-1", 2, 3, 4, 5, "t", 6, "m", true));
    }

    @Test
    void keyFoldingIsGoSimpleUpperCase() throws Exception {
        // Go folds a non-ASCII rune with unicode.ToUpper: dotless i (U+0131) becomes 'I', so "ıd" is "id";
        // dotted capital I (U+0130) stays itself, so "İd" is an unknown key.
        assertThat(JsonRegisterCodec.decode("[{\"\u0131d\":\"a\"}]")).containsExactly(only("a"));
        assertThat(JsonRegisterCodec.decode("[{\"\u0130d\":\"a\"}]")).containsExactly(only(""));
    }

    @Test
    void lastDuplicateKeyWins() throws Exception {
        assertThat(JsonRegisterCodec.decode("[{\"id\":\"a\",\"ID\":\"b\"}]")).containsExactly(only("b"));
        assertThat(JsonRegisterCodec.decode("[{\"ID\":\"b\",\"id\":\"a\"}]")).containsExactly(only("a"));
    }

    @Test
    void unknownKeysAreIgnored() throws Exception {
        assertThat(
                        JsonRegisterCodec.decode(
                                "[{\"id\":\"a\",\"migtemplate\":[[{\"name\":\"1g.5gb\",\"memory\":5120,\"count\":7}]],"
                                        + "\"instanceCount\":3,\"devicevendor\":\"NVIDIA\",\"custominfo\":{\"k\":[1,2.5,null]}}]"))
                .containsExactly(only("a"));
    }

    @Test
    void nullMembersLeaveZeroValues() throws Exception {
        assertThat(
                        JsonRegisterCodec.decode(
                                "[{\"id\":null,\"index\":null,\"count\":null,\"devmem\":null,\"devcore\":null,\"type\":null,\"numa\":null,\"mode\":null,\"health\":null}]"))
                .containsExactly(only(""));
    }

    @Test
    void whitespaceAroundTheValueIsAllowed() throws Exception {
        assertThat(JsonRegisterCodec.decode(" \n[ ]\t")).isEmpty();
        assertThat(JsonRegisterCodec.decode(" null ")).isEmpty();
    }

    @Test
    void modeIsNotDefaultedWhenAbsent() throws Exception {
        assertThat(JsonRegisterCodec.decode("[{\"id\":\"a\"}]").get(0).mode()).isEmpty();
    }

    /** Decoding {@code value} fails with a message holding every part. */
    static void rejected(String value, String... messageParts) {
        var thrown = assertThatThrownBy(() -> JsonRegisterCodec.decode(value))
                .as(value)
                .isInstanceOf(AnnotationFormatException.class);
        for (String part : messageParts) {
            thrown.hasMessageContaining(part);
        }
    }

    @Test
    void wrongJsonTypesAreErrors() {
        rejected("[{\"id\":5}]", "id");
        rejected("[{\"type\":true}]", "type");
        rejected("[{\"mode\":[]}]", "mode");
        rejected("[{\"count\":\"10\"}]", "count", "\"10\"");
        rejected("[{\"devmem\":{}}]", "devmem");
        rejected("[{\"health\":\"true\"}]", "health");
        rejected("[{\"health\":1}]", "health");
        rejected("[{\"numa\":false}]", "numa");
    }

    @Test
    void nonIntegersAndOutOfRangeIntegersAreErrors() {
        rejected("[{\"count\":1.5}]", "count");
        rejected("[{\"count\":1.0}]", "count");
        rejected("[{\"devmem\":1e3}]", "devmem");
        rejected("[{\"devcore\":2147483648}]", "devcore", "2147483648");
        rejected("[{\"devmem\":-2147483649}]", "devmem");
        rejected("[{\"count\":99999999999999999999999}]", "count");
        rejected("[{\"numa\":9223372036854775808}]", "numa");
    }

    @Test
    void negativeIndexIsAnError() {
        rejected("[{\"id\":\"a\"},{\"id\":\"b\",\"index\":-1}]", "index", "-1");
    }

    @Test
    void int32ExtremesAreAccepted() throws Exception {
        assertThat(JsonRegisterCodec.decode("[{\"count\":2147483647,\"devmem\":0,\"numa\":-0,\"index\":2147483647}]"))
                .containsExactly(new DeviceInfo("", Integer.MAX_VALUE, Integer.MAX_VALUE, 0, 0, "", 0, "", false));
    }

    @Test
    void negativeNumbersAreRefusedInEveryField() {
        for (String key : List.of("index", "count", "devmem", "devcore")) {
            rejected(
                    "[{\"id\":\"GPU-a\",\"" + key + "\":-1}]",
                    "invalid " + key + " field in device 0: -1",
                    "want a whole number from 0 to 2147483647");
        }
        rejected("[{\"devmem\":-2147483648}]", "devmem");
        // the NUMA node may be -1 (none known, design D9), nothing lower
        for (String bad : List.of("-2", "-100", "-2147483648", "-2147483649")) {
            rejected(
                    "[{\"id\":\"GPU-a\",\"numa\":" + bad + "}]",
                    "invalid numa field in device 0: " + bad,
                    "(want -1 (no NUMA node known) or a whole number from 0 to 2147483647)");
        }
    }

    @Test
    void unknownNumaNodeReadsAsMinusOneAndIsWrittenBackByteForByte() throws Exception {
        // What upstream's NVIDIA plugin writes when NVML knows no NUMA node for a GPU (design D9).
        String upstream = "[{\"id\":\"GPU-a\",\"count\":10,\"devmem\":24576,\"devcore\":100,\"type\":\"NVIDIA-A10\","
                + "\"numa\":-1,\"mode\":\"hami-core\",\"health\":true},{\"id\":\"GPU-b\",\"index\":1,\"count\":10,"
                + "\"devmem\":24576,\"devcore\":100,\"type\":\"NVIDIA-A10\",\"numa\":-1,\"mode\":\"hami-core\","
                + "\"health\":true}]";
        List<DeviceInfo> devices = JsonRegisterCodec.decode(upstream);
        assertThat(devices)
                .containsExactly(
                        new DeviceInfo("GPU-a", 0, 10, 24576, 100, "NVIDIA-A10", -1, "hami-core", true),
                        new DeviceInfo("GPU-b", 1, 10, 24576, 100, "NVIDIA-A10", -1, "hami-core", true));
        assertThat(JsonRegisterCodec.encode(devices)).isEqualTo(upstream);
        assertThat(JsonRegisterCodec.decode("[{\"NUMA\":-1}]").get(0).numa()).isEqualTo(DeviceInfo.NO_NUMA);
    }

    /** JSON values for a numeric field: the value it reads as, or null when it must be refused. */
    private record JsonNumber(String json, Long value) {}

    /** As {@link #jsonNumbers(FuzzedDataProvider)}, where for the NUMA node -1 (none known, design D9) is valid. */
    private static JsonNumber jsonNumbers(FuzzedDataProvider data, boolean numa) {
        if (!numa) {
            return jsonNumbers(data);
        }
        JsonNumber n = data.consumeBoolean() ? new JsonNumber("-1", -1L) : jsonNumbers(data);
        return n.json().equals("-1") ? new JsonNumber("-1", (long) DeviceInfo.NO_NUMA) : n;
    }

    private static JsonNumber jsonNumbers(FuzzedDataProvider data) {
        return switch (data.consumeInt(0, 5)) {
            case 0, 1 -> {
                int v = CodecInputs.uint31(data);
                yield new JsonNumber(Integer.toString(v), (long) v);
            }
            case 2 ->
                data.consumeBoolean() ? new JsonNumber("-0", 0L) : new JsonNumber("null", 0L); // Go: 0, and no change
            case 3 -> new JsonNumber(Long.toString(-1 - (data.consumeLong() & Long.MAX_VALUE >> 1)), null);
            case 4 ->
                new JsonNumber(
                        data.pickValue(new String[] {
                            "2147483648",
                            "9223372036854775807",
                            "9223372036854775808",
                            "-9223372036854775809",
                            "99999999999999999999999"
                        }),
                        null);
            default ->
                new JsonNumber(
                        data.pickValue(new String[] {
                            "1.5", "1.0", "1e3", "-1e3", "1E+2", "0.0", "\"10\"", "\"-1\"", "true", "false", "[]", "{}",
                            "[1]"
                        }),
                        null);
        };
    }

    /**
     * Every number of a device is a non-negative int32 (the NUMA node may also be -1, none known): well-formed JSON
     * with a negative, overflowing or non-integer number is refused with an error naming the first bad key; valid
     * values read exactly and survive re-encoding.
     */
    @FuzzTest
    void numbersOutsideZeroToMaxInt32AreRefused(FuzzedDataProvider data) throws Exception {
        String[] keys = {"index", "count", "devmem", "devcore", "numa"};
        var json = new StringBuilder("[");
        var expected = new ArrayList<DeviceInfo>();
        String firstBad = null;
        int n = data.consumeInt(1, 3);
        for (int d = 0; d < n; d++) {
            var values = new long[5];
            boolean valid = true;
            json.append(d == 0 ? "" : ",").append("{\"id\":\"GPU-").append(d).append('"');
            for (int k = 0; k < 5; k++) {
                JsonNumber v = jsonNumbers(data, keys[k].equals("numa"));
                json.append(",\"").append(keys[k]).append("\":").append(v.json());
                if (v.value() == null) {
                    valid = false;
                    if (firstBad == null) {
                        firstBad = "invalid " + keys[k] + " field in device " + d + ": ";
                    }
                } else {
                    values[k] = v.value();
                }
            }
            json.append('}');
            if (valid) {
                expected.add(new DeviceInfo(
                        "GPU-" + d,
                        (int) values[0],
                        (int) values[1],
                        (int) values[2],
                        (int) values[3],
                        "",
                        (int) values[4],
                        "",
                        false));
            }
        }
        String value = json.append(']').toString();
        if (firstBad != null) {
            rejected(value, firstBad);
            return;
        }
        List<DeviceInfo> decoded = JsonRegisterCodec.decode(value);
        assertThat(decoded).as(value).isEqualTo(expected);
        assertThat(JsonRegisterCodec.decode(JsonRegisterCodec.encode(decoded))).isEqualTo(sortedByIndex(expected));
    }

    @Test
    void wrongShapesAreErrors() {
        rejected("");
        rejected("   ");
        rejected("{}");
        rejected("\"a\"");
        rejected("5");
        rejected("[5]");
        rejected("[[]]");
        rejected("[{}");
        rejected("[{}]]");
        rejected("[] []");
        rejected("[]x");
        rejected("[{'id':'a'}]");
        rejected("[{\"id\":\"a\",}]");
        rejected("[{\"id\":\"a\\x\"}]");
        rejected("[{\"id\":\"a\nb\"}]"); // raw control character inside a string
        rejected("[{\"count\":01}]");
        rejected("[{\"count\":+1}]");
        rejected("[{\"count\":NaN}]");
        rejected("[/* c */]");
    }
}
