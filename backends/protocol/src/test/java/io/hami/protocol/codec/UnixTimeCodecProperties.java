package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** {@code hami.io/bind-time} and {@code hami.io/vgpu-time} (D2): decimal Unix seconds. */
class UnixTimeCodecProperties {

    @Provide
    Arbitrary<Long> seconds() {
        return Arbitraries.oneOf(
                Arbitraries.longs().between(0, 4_102_444_800L), // 1970..2100
                Arbitraries.longs().between(Instant.MIN.getEpochSecond(), Instant.MAX.getEpochSecond()));
    }

    @Property
    void decodeOfEncodeIsIdentity(@ForAll("seconds") long s) throws Exception {
        Instant t = Instant.ofEpochSecond(s);
        assertThat(UnixTimeCodec.decode(UnixTimeCodec.encode(t))).isEqualTo(t);
    }

    @Property
    void encodeIsDecimalSeconds(@ForAll("seconds") long s, @ForAll @IntRange(max = 999_999_999) int nanos) {
        assertThat(UnixTimeCodec.encode(Instant.ofEpochSecond(s, nanos))).isEqualTo(Long.toString(s));
    }

    @Property
    void canonicalValuesReencodeByteForByte(@ForAll("seconds") long s) throws Exception {
        assertThat(UnixTimeCodec.encode(UnixTimeCodec.decode(Long.toString(s)))).isEqualTo(Long.toString(s));
    }

    @Example
    void goParseIntSyntaxIsAccepted() throws Exception {
        assertThat(UnixTimeCodec.decode("+1716199325")).isEqualTo(Instant.ofEpochSecond(1716199325));
        assertThat(UnixTimeCodec.decode("01716199325")).isEqualTo(Instant.ofEpochSecond(1716199325));
        assertThat(UnixTimeCodec.decode("-1")).isEqualTo(Instant.parse("1969-12-31T23:59:59Z"));
        assertThat(UnixTimeCodec.decode("0")).isEqualTo(Instant.EPOCH);
    }

    @Example
    void invalidValuesAreTypedErrors() {
        for (String bad : List.of("", " ", "x", "1716199325 ", " 1716199325", "1716199325.5", "1.7e9", "0x10",
                "1_716_199_325", "+", "-", "\u0661\u0667", "2024-05-20T10:02:05Z",
                "9223372036854775808", "-9223372036854775809", "99999999999999999999999999")) {
            assertThatThrownBy(() -> UnixTimeCodec.decode(bad)).as(bad).isInstanceOf(AnnotationFormatException.class);
        }
    }

    @Example
    void secondsBeyondTheInstantRangeAreTypedErrors() {
        // Long.MAX_VALUE parses as an int64 but is no Instant.
        for (String bad : List.of("9223372036854775807", "-9223372036854775808", Long.toString(Instant.MAX.getEpochSecond() + 1))) {
            assertThatThrownBy(() -> UnixTimeCodec.decode(bad)).as(bad)
                    .isInstanceOf(AnnotationFormatException.class).hasMessageContaining(bad);
        }
    }
}
