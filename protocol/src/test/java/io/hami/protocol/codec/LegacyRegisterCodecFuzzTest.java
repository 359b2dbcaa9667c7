package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hami.protocol.device.DeviceInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The legacy colon form (design D2 in docs/design.md#d2, docs/upstream.md#colon-form): Go strconv syntax, 7 or 9
 * fields read, 9 written.
 */
class LegacyRegisterCodecFuzzTest {

    /** Up to 6 devices with distinct indexes and colon-form text; may be empty, which callers skip. */
    private static List<DeviceInfo> lists(FuzzedDataProvider data) {
        return CodecInputs.deviceLists(data, CodecInputs::colonText, 6);
    }

    private static List<DeviceInfo> sortedByIndex(List<DeviceInfo> devices) {
        return devices.stream()
                .sorted(Comparator.comparingInt(DeviceInfo::index))
                .toList();
    }

    /** The 9-field entry as docs/upstream.md#colon-form defines it, written independently of the codec. */
    private static String entry(DeviceInfo d) {
        return String.join(
                        ",",
                        d.id(),
                        Integer.toString(d.count()),
                        Integer.toString(d.devmem()),
                        Integer.toString(d.devcore()),
                        d.type(),
                        Integer.toString(d.numa()),
                        Boolean.toString(d.health()),
                        Integer.toString(d.index()),
                        d.mode())
                + ":";
    }

    private static String canonical(List<DeviceInfo> devices) {
        return sortedByIndex(devices).stream()
                .map(LegacyRegisterCodecFuzzTest::entry)
                .collect(Collectors.joining());
    }

    @FuzzTest
    void decodeOfEncodeGivesTheDevicesSortedByIndex(FuzzedDataProvider data) throws Exception {
        List<DeviceInfo> devices = lists(data);
        if (devices.isEmpty()) {
            return; // the generator draws non-empty lists only
        }
        assertThat(LegacyRegisterCodec.decode(LegacyRegisterCodec.encode(devices)))
                .isEqualTo(sortedByIndex(devices));
    }

    @FuzzTest
    void encodeWritesNineFieldsPerDeviceEachEndedByColon(FuzzedDataProvider data) {
        List<DeviceInfo> devices = lists(data);
        if (devices.isEmpty()) {
            return; // the generator draws non-empty lists only
        }
        assertThat(LegacyRegisterCodec.encode(devices)).isEqualTo(canonical(devices));
    }

    @FuzzTest
    void canonicalValuesReencodeByteForByte(FuzzedDataProvider data) throws Exception {
        List<DeviceInfo> devices = lists(data);
        if (devices.isEmpty()) {
            return; // the generator draws non-empty lists only
        }
        String value = canonical(devices);
        assertThat(LegacyRegisterCodec.encode(LegacyRegisterCodec.decode(value)))
                .isEqualTo(value);
    }

    @FuzzTest
    void sevenFieldEntriesGetIndexZeroAndModeHamiCore(FuzzedDataProvider data) throws Exception {
        List<DeviceInfo> devices = lists(data);
        if (devices.isEmpty()) {
            return; // the generator draws non-empty lists only
        }
        String value = devices.stream()
                .map(d -> String.join(
                                ",",
                                d.id(),
                                "" + d.count(),
                                "" + d.devmem(),
                                "" + d.devcore(),
                                d.type(),
                                "" + d.numa(),
                                "" + d.health())
                        + ":")
                .collect(Collectors.joining());
        var expected = devices.stream()
                .map(d -> new DeviceInfo(
                        d.id(), 0, d.count(), d.devmem(), d.devcore(), d.type(), d.numa(), "hami-core", d.health()))
                .toList();
        assertThat(LegacyRegisterCodec.decode(value)).isEqualTo(expected);
    }

    @FuzzTest
    void emptySegmentsAreSkipped(FuzzedDataProvider data) throws Exception {
        List<DeviceInfo> devices = lists(data);
        if (devices.isEmpty()) {
            return; // the generator draws non-empty lists only
        }
        int extra = data.consumeInt(0, 3);
        String sep = ":".repeat(extra);
        String value =
                sep + sortedByIndex(devices).stream().map(d -> entry(d) + sep).collect(Collectors.joining());
        assertThat(LegacyRegisterCodec.decode(value)).isEqualTo(sortedByIndex(devices));
    }

    @FuzzTest
    void oneMalformedDevicePoisonsTheWholeValue(FuzzedDataProvider data) {
        List<DeviceInfo> devices = lists(data);
        if (devices.isEmpty()) {
            return; // the generator draws non-empty lists only
        }
        String bad = malformedEntries(data);
        int position = data.consumeInt(0, 6);
        var entries = new ArrayList<>(sortedByIndex(devices).stream()
                .map(LegacyRegisterCodecFuzzTest::entry)
                .toList());
        entries.add(Math.min(position, entries.size()), bad + ":");
        String value = String.join("", entries);
        assertThatThrownBy(() -> LegacyRegisterCodec.decode(value))
                .as(value)
                .isInstanceOf(AnnotationFormatException.class);
    }

    private static final String[] BAD_VALUES = {
        "",
        " 1",
        "1 ",
        "x",
        "1.5",
        "0x10",
        "1_0",
        "+",
        "-",
        "\u0661",
        "\uff11",
        "2147483648",
        "-2147483649",
        "99999999999999999999",
        "tRUE",
        "yes"
    };

    private static final int[] NUMERIC_OR_BOOL_FIELDS = {1, 2, 3, 5, 6, 7};

    private static final char[] ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".toCharArray();

    private static String malformedEntries(FuzzedDataProvider data) {
        var good = List.of("GPU-1", "10", "7680", "100", "T", "0", "true", "1", "hami-core");
        switch (data.consumeInt(0, 2)) {
            case 0 -> {
                // replace one numeric/bool field (1,2,3,5,6,7) by a bad value
                int i = data.pickValue(NUMERIC_OR_BOOL_FIELDS);
                var f = new ArrayList<>(good);
                f.set(i, data.pickValue(BAD_VALUES));
                return String.join(",", f);
            }
            case 1 -> {
                int n = data.pickValue(new int[] {2, 3, 4, 5, 6, 8, 10, 11, 12}); // 2..12 except 7 and 9
                return String.join(",", java.util.Collections.nCopies(n, "1"));
            }
            default -> {
                int length = data.consumeInt(1, 8);
                var b = new StringBuilder(length);
                for (int k = 0; k < length; k++) {
                    b.append(data.pickValue(ALPHA));
                }
                return b.toString();
            }
        }
    }

    // ---- strconv semantics -----------------------------------------------------------------------

    private static String device(String count, String health) {
        return "GPU-1," + count + ",1,1,T,0," + health + ":";
    }

    @Test
    void parseBoolAcceptsExactlyGoSpellings() throws Exception {
        for (String t : List.of("1", "t", "T", "TRUE", "true", "True")) {
            assertThat(LegacyRegisterCodec.decode(device("1", t)).get(0).health())
                    .as(t)
                    .isTrue();
        }
        for (String f : List.of("0", "f", "F", "FALSE", "false", "False")) {
            assertThat(LegacyRegisterCodec.decode(device("1", f)).get(0).health())
                    .as(f)
                    .isFalse();
        }
        for (String bad :
                List.of("", "tRUE", "TRue", "yes", "no", "2", " true", "true ", "on", "y", "fALSE", "\u0031\u0301")) {
            assertThatThrownBy(() -> LegacyRegisterCodec.decode(device("1", bad)))
                    .as(bad)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("health");
        }
    }

    @Test
    void parseIntAcceptsSignsAndLeadingZeros() throws Exception {
        assertThat(LegacyRegisterCodec.decode(device("+5", "true")).get(0).count())
                .isEqualTo(5);
        assertThat(LegacyRegisterCodec.decode(device("007", "true")).get(0).count())
                .isEqualTo(7);
        assertThat(LegacyRegisterCodec.decode(device("-0", "true")).get(0).count())
                .isZero();
        assertThat(LegacyRegisterCodec.decode(device("2147483647", "true"))
                        .get(0)
                        .count())
                .isEqualTo(Integer.MAX_VALUE);
        assertThat(LegacyRegisterCodec.decode(device("000000000000000000000000000001", "true"))
                        .get(0)
                        .count())
                .isEqualTo(1);
    }

    @Test
    void negativeNumbersAreRefusedInEveryField() {
        // id,count,devmem,devcore,type,numa,health,index,mode; the NUMA node may be -1 but not -5
        String[] fields = {"count", "memory", "core", "", "numa", "", "index"};
        for (int i = 1; i <= 7; i++) {
            if (fields[i - 1].isEmpty()) {
                continue;
            }
            var f = new ArrayList<>(List.of("GPU-1", "10", "7680", "100", "T", "0", "true", "1", "hami-core"));
            f.set(i, "-5");
            String value = String.join(",", f) + ":";
            assertThatThrownBy(() -> LegacyRegisterCodec.decode(value))
                    .as(value)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessage("invalid " + fields[i - 1] + " field in device 0: \"-5\", want "
                            + (i == 5 ? "-1 (no NUMA node known) or " : "") + "a whole number from 0 to 2147483647");
        }
    }

    @Test
    void parseIntRejectsWhatGoRejects() {
        // Integer.parseInt would accept the Arabic-Indic and full-width digits; Go does not.
        for (String bad : List.of(
                "",
                " 1",
                "1 ",
                "\t1",
                "x",
                "1.0",
                "1e3",
                "0x10",
                "1_000",
                "+",
                "-",
                "+-1",
                "--1",
                "\u0661",
                "\uff11",
                "\u0967",
                "2147483648",
                "-2147483649",
                "9223372036854775808",
                "-1",
                "-2147483648")) {
            assertThatThrownBy(() -> LegacyRegisterCodec.decode(device(bad, "true")))
                    .as(bad)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("count");
        }
    }

    @Test
    void indexMustNotBeNegativeButMayBeSigned() throws Exception {
        assertThat(LegacyRegisterCodec.decode("GPU-1,1,1,1,T,0,true,+3,m:")
                        .get(0)
                        .index())
                .isEqualTo(3);
        assertThat(LegacyRegisterCodec.decode("GPU-1,1,1,1,T,0,true,-0,m:")
                        .get(0)
                        .index())
                .isZero();
        assertThatThrownBy(() -> LegacyRegisterCodec.decode("GPU-1,1,1,1,T,0,true,-3,m:"))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageContaining("index");
    }

    @Test
    void unknownNumaNodeReadsAsMinusOneAndIsWrittenBack() throws Exception {
        // design D9: -1 is the NUMA node of a device whose library knows none; Go writes it with strconv.Itoa.
        String nine = "HCU-0,4,65536,100,Hygon Z100,-1,true,0,hami-core:";
        assertThat(LegacyRegisterCodec.decode(nine))
                .containsExactly(new DeviceInfo("HCU-0", 0, 4, 65536, 100, "Hygon Z100", -1, "hami-core", true));
        assertThat(LegacyRegisterCodec.encode(LegacyRegisterCodec.decode(nine))).isEqualTo(nine);
        // the 7-field form and Go's other spellings of -1 read the same
        assertThat(LegacyRegisterCodec.decode("GPU-1,1,1,1,T,-1,true:").get(0).numa())
                .isEqualTo(DeviceInfo.NO_NUMA);
        assertThat(LegacyRegisterCodec.decode("GPU-1,1,1,1,T,-01,true:").get(0).numa())
                .isEqualTo(DeviceInfo.NO_NUMA);
    }

    @Test
    void numaBelowMinusOneIsRefused() {
        for (String bad : List.of("-2", "-5", "-2147483648", "-2147483649")) {
            assertThatThrownBy(() -> LegacyRegisterCodec.decode("GPU-1,1,1,1,T," + bad + ",true:"))
                    .as(bad)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessage("invalid numa field in device 0: \"" + bad
                            + "\", want -1 (no NUMA node known) or a whole number from 0 to 2147483647");
        }
    }

    /**
     * Every number of a device reads as a non-negative int32 (the NUMA node also as -1, none known) or poisons the
     * value with an error naming the first bad field (in the order the reader checks them); valid values read
     * exactly, and canonical ones re-encode to the same bytes.
     */
    @FuzzTest
    void numbersOutsideZeroToMaxInt32AreRefused(FuzzedDataProvider data) throws Exception {
        int n = data.consumeInt(1, 3);
        var entries = new ArrayList<String>();
        var expected = new ArrayList<DeviceInfo>();
        String firstBad = null;
        boolean canonical = true;
        for (int d = 0; d < n; d++) {
            String id = CodecInputs.colonText(data);
            String type = CodecInputs.colonText(data);
            String mode = CodecInputs.colonText(data);
            boolean health = data.consumeBoolean();
            // the reader's order: count, memory, core, numa, index
            String[] names = {"count", "memory", "core", "numa", "index"};
            var numbers = new CodecInputs.NumberText[5];
            for (int k = 0; k < 5; k++) {
                numbers[k] = k == 3 ? CodecInputs.numaTexts(data) : CodecInputs.numberTexts(data, Integer.MAX_VALUE);
                if (firstBad == null && !numbers[k].valid()) {
                    firstBad = "invalid " + names[k] + " field in device " + d + ": ";
                }
                canonical &= numbers[k].canonical();
            }
            entries.add(String.join(
                            ",",
                            id,
                            numbers[0].text(),
                            numbers[1].text(),
                            numbers[2].text(),
                            type,
                            numbers[3].text(),
                            Boolean.toString(health),
                            numbers[4].text(),
                            mode)
                    + ":");
            if (java.util.Arrays.stream(numbers).allMatch(CodecInputs.NumberText::valid)) {
                expected.add(new DeviceInfo(
                        id,
                        numbers[4].value().intValue(),
                        numbers[0].value().intValue(),
                        numbers[1].value().intValue(),
                        numbers[2].value().intValue(),
                        type,
                        numbers[3].value().intValue(),
                        mode,
                        health));
            }
        }
        String value = String.join("", entries);
        if (firstBad != null) {
            assertThatThrownBy(() -> LegacyRegisterCodec.decode(value))
                    .as(value)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining(firstBad)
                    .hasMessageContaining(
                            firstBad.startsWith("invalid numa ")
                                    ? "want -1 (no NUMA node known) or a whole number from 0 to 2147483647"
                                    : "want a whole number from 0 to 2147483647");
            return;
        }
        List<DeviceInfo> decoded = LegacyRegisterCodec.decode(value);
        assertThat(decoded).as(value).isEqualTo(expected);
        if (canonical) {
            // the writer sorts by index (stably), so the same bytes come back in that order
            var order = new ArrayList<Integer>();
            for (int i = 0; i < n; i++) {
                order.add(i);
            }
            order.sort(Comparator.comparingInt(i -> expected.get(i).index()));
            assertThat(LegacyRegisterCodec.encode(decoded))
                    .isEqualTo(order.stream().map(entries::get).collect(Collectors.joining()));
        }
    }

    @Test
    void idTypeAndModeAreVerbatim() throws Exception {
        var d = LegacyRegisterCodec.decode(" GPU 1 ,1,1,1, NVIDIA A10 ,0,true,0, hami-core ;x:")
                .get(0);
        assertThat(d.id()).isEqualTo(" GPU 1 ");
        assertThat(d.type()).isEqualTo(" NVIDIA A10 ");
        assertThat(d.mode()).isEqualTo(" hami-core ;x");
    }

    @Test
    void emptyIdAndTypeAreAccepted() throws Exception {
        assertThat(LegacyRegisterCodec.decode(",1,1,1,,0,true:"))
                .containsExactly(new DeviceInfo("", 0, 1, 1, 1, "", 0, "hami-core", true));
    }

    @Test
    void segmentWithoutCommaIsAnError() {
        assertThatThrownBy(() -> LegacyRegisterCodec.decode("GPU-1,1,1,1,T,0,true:garbage:"))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageContaining("\"garbage\"");
    }

    @Test
    void fieldCountsOtherThanSevenOrNineAreErrors() {
        for (int n = 1; n <= 12; n++) {
            if (n == 7 || n == 9) {
                continue;
            }
            String value = String.join(",", java.util.Collections.nCopies(n, "1")) + ":";
            int fields = n;
            assertThatThrownBy(() -> LegacyRegisterCodec.decode(value))
                    .as(value)
                    .isInstanceOf(AnnotationFormatException.class)
                    .satisfies(e -> {
                        if (fields > 1) {
                            assertThat(e).hasMessageContaining("field count " + fields);
                        }
                    });
        }
    }

    @Test
    void lastSegmentNeedNotEndWithColon() throws Exception {
        // Go splits on ':' and skips empty segments, so a missing final ':' still decodes.
        assertThat(LegacyRegisterCodec.decode("GPU-1,1,1,1,T,0,true:GPU-2,1,1,1,T,0,true,1,m"))
                .hasSize(2);
    }

    @Test
    void noDevicesReadBackAsNoDevices() throws Exception {
        // "" has no separator and reads as an error (docs/upstream.md#colon-form), so the writer must not emit it.
        assertThat(LegacyRegisterCodec.decode(LegacyRegisterCodec.encode(List.of())))
                .isEmpty();
    }

    @Test
    void unrepresentableTextIsRefusedByTheWriter() {
        for (String bad : List.of("a,b", "a:b")) {
            assertThatThrownBy(() ->
                            LegacyRegisterCodec.encode(List.of(new DeviceInfo(bad, 0, 1, 1, 1, "T", 0, "m", true))))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() ->
                            LegacyRegisterCodec.encode(List.of(new DeviceInfo("a", 0, 1, 1, 1, bad, 0, "m", true))))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() ->
                            LegacyRegisterCodec.encode(List.of(new DeviceInfo("a", 0, 1, 1, 1, "T", 0, bad, true))))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
