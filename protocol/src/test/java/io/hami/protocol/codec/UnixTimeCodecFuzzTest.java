package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code hami.io/bind-time} and {@code hami.io/vgpu-time} (design D2, docs/design.md#d2): decimal Unix seconds. */
class UnixTimeCodecFuzzTest {

    private static long seconds(FuzzedDataProvider data) {
        return data.consumeBoolean()
                ? data.consumeLong(0, 4_102_444_800L) // 1970..2100
                : data.consumeLong(0, UnixTimeCodec.MAX_SECONDS);
    }

    /**
     * Seconds from 0 to the end of year 9999 read exactly (canonical ones re-encode to the same bytes);
     * negative, overflowing and non-numeric values are refused.
     */
    @FuzzTest
    void numbersOutsideTheClocksRangeAreRefused(FuzzedDataProvider data) throws Exception {
        CodecInputs.NumberText n = CodecInputs.numberTexts(data, UnixTimeCodec.MAX_SECONDS);
        if (!n.valid()) {
            assertThatThrownBy(() -> UnixTimeCodec.decode(n.text()))
                    .as(n.text())
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining("want decimal seconds from 0 to 253402300799");
            return;
        }
        Instant t = UnixTimeCodec.decode(n.text());
        assertThat(t).isEqualTo(Instant.ofEpochSecond(n.value()));
        if (n.canonical()) {
            assertThat(UnixTimeCodec.encode(t)).isEqualTo(n.text());
        }
    }

    @FuzzTest
    void decodeOfEncodeIsIdentity(FuzzedDataProvider data) throws Exception {
        long s = seconds(data);
        Instant t = Instant.ofEpochSecond(s);
        assertThat(UnixTimeCodec.decode(UnixTimeCodec.encode(t))).isEqualTo(t);
    }

    @FuzzTest
    void encodeIsDecimalSeconds(FuzzedDataProvider data) {
        long s = seconds(data);
        int nanos = data.consumeInt(0, 999_999_999);
        assertThat(UnixTimeCodec.encode(Instant.ofEpochSecond(s, nanos))).isEqualTo(Long.toString(s));
    }

    @FuzzTest
    void canonicalValuesReencodeByteForByte(FuzzedDataProvider data) throws Exception {
        long s = seconds(data);
        assertThat(UnixTimeCodec.encode(UnixTimeCodec.decode(Long.toString(s)))).isEqualTo(Long.toString(s));
    }

    @Test
    void goParseIntSyntaxIsAccepted() throws Exception {
        assertThat(UnixTimeCodec.decode("+1716199325")).isEqualTo(Instant.ofEpochSecond(1716199325));
        assertThat(UnixTimeCodec.decode("01716199325")).isEqualTo(Instant.ofEpochSecond(1716199325));
        assertThat(UnixTimeCodec.decode("-0")).isEqualTo(Instant.EPOCH);
        assertThat(UnixTimeCodec.decode("0")).isEqualTo(Instant.EPOCH);
        assertThat(UnixTimeCodec.decode("253402300799")).isEqualTo(Instant.parse("9999-12-31T23:59:59Z"));
    }

    @Test
    void invalidValuesAreTypedErrors() {
        for (String bad : List.of(
                "",
                " ",
                "x",
                "1716199325 ",
                " 1716199325",
                "1716199325.5",
                "1.7e9",
                "0x10",
                "1_716_199_325",
                "+",
                "-",
                "\u0661\u0667",
                "2024-05-20T10:02:05Z",
                "9223372036854775808",
                "-9223372036854775809",
                "99999999999999999999999999")) {
            assertThatThrownBy(() -> UnixTimeCodec.decode(bad)).as(bad).isInstanceOf(AnnotationFormatException.class);
        }
    }

    @Test
    void secondsBeyondTheInstantRangeAreTypedErrors() {
        // Long.MAX_VALUE parses as an int64 but is no Instant.
        for (String bad : List.of(
                "9223372036854775807",
                "-9223372036854775808",
                Long.toString(Instant.MAX.getEpochSecond() + 1),
                "-1",
                "253402300800")) {
            assertThatThrownBy(() -> UnixTimeCodec.decode(bad))
                    .as(bad)
                    .isInstanceOf(AnnotationFormatException.class)
                    .hasMessageContaining(bad);
        }
    }
}
