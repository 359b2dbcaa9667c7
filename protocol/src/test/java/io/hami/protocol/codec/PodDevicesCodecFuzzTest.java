package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Pod device strings (design D2, docs/design.md#d2): devices each ended by ':', containers each ended by ';'. */
class PodDevicesCodecFuzzTest {

    private static PodDevices pods(FuzzedDataProvider data) {
        return CodecInputs.podDevices(data);
    }

    /** The design D2 grammar, written independently of the codec. */
    private static String canonical(PodDevices pd) {
        return pd.containers().stream()
                .map(c -> c.stream()
                                .map(d -> d.uuid() + "," + d.type() + "," + d.usedmem() + "," + d.usedcores() + ":")
                                .collect(Collectors.joining())
                        + ";")
                .collect(Collectors.joining());
    }

    @FuzzTest
    void decodeOfEncodeIsIdentity(FuzzedDataProvider data) throws Exception {
        PodDevices pd = pods(data);
        assertThat(PodDevicesCodec.decode(PodDevicesCodec.encode(pd))).isEqualTo(pd);
    }

    @FuzzTest
    void encodeFollowsTheGrammar(FuzzedDataProvider data) {
        PodDevices pd = pods(data);
        assertThat(PodDevicesCodec.encode(pd)).isEqualTo(canonical(pd));
    }

    @FuzzTest
    void canonicalStringsReencodeByteForByte(FuzzedDataProvider data) throws Exception {
        PodDevices pd = pods(data);
        String value = canonical(pd);
        assertThat(PodDevicesCodec.encode(PodDevicesCodec.decode(value))).isEqualTo(value);
    }

    @FuzzTest
    void oneEntryPerSemicolon(FuzzedDataProvider data) throws Exception {
        PodDevices pd = pods(data);
        String value = PodDevicesCodec.encode(pd);
        long semicolons = value.chars().filter(c -> c == ';').count();
        assertThat(PodDevicesCodec.decode(value).containers()).hasSize((int) semicolons);
    }

    @FuzzTest
    void consumingEveryEntryLeavesOneSemicolonPerContainer(FuzzedDataProvider data) throws Exception {
        PodDevices pd = pods(data);
        // design D2/D4 (docs/design.md#d4): the plugin empties the first non-empty entry, re-encodes, and reads it back
        // next time.
        String value = PodDevicesCodec.encode(pd);
        for (int round = 0; round <= pd.containers().size(); round++) {
            PodDevices now = PodDevicesCodec.decode(value);
            assertThat(now.containers()).hasSize(pd.containers().size());
            int i = now.firstNonEmpty();
            if (i < 0) {
                break;
            }
            assertThat(now.containers().get(i)).isEqualTo(pd.containers().get(i));
            value = PodDevicesCodec.encode(now.consume(i));
        }
        assertThat(value).isEqualTo(";".repeat(pd.containers().size()));
    }

    @FuzzTest
    void aDeviceWithoutExactlyFourFieldsIsAnError(FuzzedDataProvider data) {
        PodDevices pd = pods(data);
        int fields = data.consumeInt(1, 8);
        if (fields == 4) {
            return;
        }
        String bad = String.join(",", java.util.Collections.nCopies(fields, "1"));
        String value = PodDevicesCodec.encode(pd) + bad + ":;";
        assertThatThrownBy(() -> PodDevicesCodec.decode(value)).as(value).isInstanceOf(AnnotationFormatException.class);
    }

    /**
     * Memory and cores read as non-negative int32s or refused: a negative grant would lower the usage the
     * scheduler counts. Every value is read exactly, a canonical one re-encodes to the same bytes, and anything
     * else is an {@link AnnotationFormatException} naming the first bad field.
     */
    @FuzzTest
    void numbersOutsideZeroToMaxInt32AreRefused(FuzzedDataProvider data) throws Exception {
        var value = new StringBuilder();
        var expected = new ArrayList<List<ContainerDevice>>();
        String firstBad = null;
        boolean canonical = true;
        int containers = data.consumeInt(1, 3);
        for (int c = 0; c < containers; c++) {
            var devices = new ArrayList<ContainerDevice>();
            int n = data.consumeInt(0, 3);
            for (int d = 0; d < n; d++) {
                String uuid = CodecInputs.podText(data);
                String type = CodecInputs.podText(data);
                CodecInputs.NumberText mem = CodecInputs.numberTexts(data, Integer.MAX_VALUE);
                CodecInputs.NumberText cores = CodecInputs.numberTexts(data, Integer.MAX_VALUE);
                value.append(uuid)
                        .append(',')
                        .append(type)
                        .append(',')
                        .append(mem.text())
                        .append(',')
                        .append(cores.text())
                        .append(':');
                if (firstBad == null && !mem.valid()) {
                    firstBad = "invalid memory field in container " + c + " device " + d;
                } else if (firstBad == null && !cores.valid()) {
                    firstBad = "invalid core field in container " + c + " device " + d;
                }
                canonical &= mem.canonical() && cores.canonical();
                if (mem.valid() && cores.valid()) {
                    devices.add(new ContainerDevice(
                            uuid, type, mem.value().intValue(), cores.value().intValue()));
                }
            }
            value.append(';');
            expected.add(devices);
        }
        String text = value.toString();
        if (firstBad != null) {
            assertThatThrownBy(() -> PodDevicesCodec.decode(text))
                    .as(text)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining(firstBad)
                    .hasMessageContaining("want a whole number from 0 to 2147483647");
            return;
        }
        PodDevices decoded = PodDevicesCodec.decode(text);
        assertThat(decoded).as(text).isEqualTo(new PodDevices(expected));
        if (canonical) {
            assertThat(PodDevicesCodec.encode(decoded)).isEqualTo(text);
        }
    }

    @Test
    void negativeGrantsAreRefusedWithTheFieldAndTheRange() {
        assertThatThrownBy(() -> PodDevicesCodec.decode("GPU-a,NVIDIA,-40960,-100:;"))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessage(
                        "invalid memory field in container 0 device 0: \"-40960\", want a whole number from 0 to 2147483647");
        assertThatThrownBy(() -> PodDevicesCodec.decode("GPU-a,NVIDIA,0,-1:;"))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageContaining("invalid core field")
                .hasMessageContaining("\"-1\"");
        assertThatThrownBy(() -> PodDevicesCodec.decode("GPU-a,NVIDIA,-0,-0:;GPU-b,NVIDIA,1,-2147483648:;"))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageContaining("container 1 device 0");
    }

    // ---- examples from design D2 -----------------------------------------------------------------

    private static final ContainerDevice A = new ContainerDevice("GPU-a", "NVIDIA", 1000, 10);

    @Test
    void finalSemicolonDoesNotOpenAContainer() throws Exception {
        assertThat(PodDevicesCodec.decode("GPU-a,NVIDIA,1000,10:;").containers())
                .containsExactly(List.of(A));
        assertThat(PodDevicesCodec.decode(";").containers()).containsExactly(List.of());
        assertThat(PodDevicesCodec.decode(";;").containers()).containsExactly(List.of(), List.of());
        assertThat(PodDevicesCodec.decode("").containers()).isEmpty();
    }

    /**
     * docs/upstream.md#pod-device-strings: upstream's decoder keeps the piece after the final {@code ;}, so its plugin,
     * consuming {@code A:;} of a one-container pod, writes {@code ;;}, where ours writes {@code ;}; and it writes
     * {@code [[],[A],[]]} as {@code ;A:;;}. Our reader takes both forms: nothing left to allocate, or the same entries.
     */
    @Test
    void upstreamsConsumedAndPaddedFormsReadAsOurs() throws Exception {
        for (String consumed : List.of(";", ";;", ";;;", ";;;;", "")) {
            PodDevices pd = PodDevicesCodec.decode(consumed);
            assertThat(pd.isEmpty()).as(consumed).isTrue();
            assertThat(pd.firstNonEmpty()).as(consumed).isEqualTo(-1);
        }
        // a one-container pod served once: ours writes ';', upstream's ';;' (checked consumed above)
        PodDevices one = PodDevicesCodec.decode("GPU-a,NVIDIA,1000,10:;");
        assertThat(PodDevicesCodec.encode(one.consume(one.firstNonEmpty()))).isEqualTo(";");

        // upstream's encoding of a three-container pod whose middle container has the device
        PodDevices padded = PodDevicesCodec.decode(";GPU-a,NVIDIA,1000,10:;;");
        assertThat(padded.containers()).containsExactly(List.of(), List.of(A), List.of());
        assertThat(padded.firstNonEmpty()).isEqualTo(1);
        // its consumed forms, upstream's (one ';' more per decode) and ours, are consumed alike
        for (String consumed : List.of(";;;;", ";;;")) {
            assertThat(PodDevicesCodec.decode(consumed).isEmpty()).as(consumed).isTrue();
        }
        assertThat(PodDevicesCodec.encode(padded.consume(1))).isEqualTo(";;;");
        // a trailing extra entry (upstream's phantom) holds nothing, so entry i is still container i
        assertThat(PodDevicesCodec.decode(";GPU-a,NVIDIA,1000,10:;;;")
                        .containers()
                        .subList(0, 3))
                .isEqualTo(padded.containers());
    }

    @Test
    void typeKeywordsOfEveryVendorRoundTrip() throws Exception {
        for (String type : List.of("NVIDIA", "MLU", "Mthreads", "HCU")) {
            var pd = new PodDevices(List.of(List.of(new ContainerDevice("dev-0", type, 512, 16))));
            assertThat(PodDevicesCodec.encode(pd)).isEqualTo("dev-0," + type + ",512,16:;");
            assertThat(PodDevicesCodec.decode("dev-0," + type + ",512,16:;")).isEqualTo(pd);
        }
    }

    @Test
    void numbersFollowGoParseInt32() throws Exception {
        assertThat(PodDevicesCodec.decode("GPU-a,NVIDIA,+1000,010:;")
                        .containers()
                        .get(0))
                .containsExactly(new ContainerDevice("GPU-a", "NVIDIA", 1000, 10));
        for (String bad : List.of(
                "", " 1", "1 ", "1.0", "0x1", "\u0661", "2147483648", "-2147483649", "+", "-1", "-2147483648")) {
            assertThatThrownBy(() -> PodDevicesCodec.decode("GPU-a,NVIDIA," + bad + ",0:;"))
                    .as(bad)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("memory");
            assertThatThrownBy(() -> PodDevicesCodec.decode("GPU-a,NVIDIA,0," + bad + ":;"))
                    .as(bad)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("core");
        }
    }

    @Test
    void errorsNameTheContainerAndQuoteTheText() {
        assertThatThrownBy(() -> PodDevicesCodec.decode(";GPU-a,NVIDIA,12x,0:;"))
                .isInstanceOf(AnnotationFormatException.class)
                .hasMessageContaining("memory")
                .hasMessageContaining("\"12x\"")
                .hasMessageContaining("container 1");
    }

    @Test
    void unrepresentableTextIsRefusedByTheWriter() {
        for (String bad : List.of("", "a,b", "a:b", "a;b")) {
            assertThatThrownBy(() -> PodDevicesCodec.encode(
                            new PodDevices(List.of(List.of(new ContainerDevice(bad, "NVIDIA", 1, 1))))))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> PodDevicesCodec.encode(
                            new PodDevices(List.of(List.of(new ContainerDevice("u", bad, 1, 1))))))
                    .as(bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void garbageSegmentsAreErrorsNotSilentlySkipped() {
        // Upstream skips a segment without ','; the strict decoder reports it instead.
        for (String bad : List.of("garbage:;", "GPU-a,NVIDIA,1,1:junk:;", "GPU-a,NVIDIA,1,1,extra:;")) {
            assertThatThrownBy(() -> PodDevicesCodec.decode(bad)).as(bad).isInstanceOf(AnnotationFormatException.class);
        }
    }

    private static final char[] HEX = "abcdef0123456789".toCharArray();

    private static String uuids(FuzzedDataProvider data) {
        if (data.consumeBoolean()) {
            return CodecInputs.podText(data);
        }
        var b = new StringBuilder(32);
        for (int i = 0; i < 32; i++) {
            b.append(data.pickValue(HEX));
        }
        String h = b.toString();
        return "GPU-" + h.substring(0, 8) + "-" + h.substring(8, 12) + "-" + h.substring(12, 16) + "-"
                + h.substring(16, 20) + "-" + h.substring(20);
    }

    @FuzzTest
    void uuidsAreKeptVerbatim(FuzzedDataProvider data) throws Exception {
        String uuid = uuids(data);
        var pd = PodDevicesCodec.decode(uuid + ",NVIDIA,1,2:;");
        assertThat(pd.containers().get(0).get(0).uuid()).isEqualTo(uuid);
    }
}
