package io.hami.protocol.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Design D2 (docs/design.md#d2): decoders never use unbounded memory. Each shape is decoded at 1 MB and at 10 MB; the 10 MB run must
 * finish, allocate at most a fixed number of bytes per input character, and allocate no more than about ten
 * times what the 1 MB run allocated (a quadratic decoder would allocate a hundred times more).
 */
class CodecLargeInputTest {
    private static final int MB = 1 << 20;

    /** Generous bound: a linear decoder of a UTF-16 input allocates tens of bytes per character at most. */
    private static final long MAX_BYTES_PER_CHAR = 400;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Builds a string of at least {@code size} chars by repeating {@code unit} between a prefix and a suffix. */
    private static IntFunction<String> repeat(String prefix, String unit, String suffix) {
        return size -> {
            var b = new StringBuilder(size + prefix.length() + suffix.length() + unit.length());
            b.append(prefix);
            while (b.length() < size) {
                b.append(unit);
            }
            return b.append(suffix).toString();
        };
    }

    static Stream<Arguments> shapes() {
        String jsonDevice = "{\"id\":\"GPU-00552014-5c87-89ac-b1a6-7b53aa24b0ec\",\"count\":10,\"devmem\":32768,"
                + "\"devcore\":100,\"type\":\"NVIDIA-Tesla V100-PCIE-32GB\",\"numa\":1,\"mode\":\"hami-core\",\"health\":true},";
        String colonDevice = "GPU-ebe7c3f7-303d-558d-435e-99a160631fe4,10,7680,100,NVIDIA-Tesla P4,0,true,1,hami-core:";
        return Stream.of(
                Arguments.of("json many devices", (Decode) JsonRegisterCodec::decode, repeat("[", jsonDevice, "{}]")),
                Arguments.of(
                        "json long id",
                        (Decode) JsonRegisterCodec::decode,
                        repeat("[{\"id\":\"", "GPU-\\u003c", "\"}]")),
                Arguments.of(
                        "json long unknown key", (Decode) JsonRegisterCodec::decode, repeat("[{\"", "x", "\":1}]")),
                Arguments.of("json long number", (Decode) JsonRegisterCodec::decode, repeat("[{\"count\":", "9", "}]")),
                Arguments.of("json deep nesting", (Decode) JsonRegisterCodec::decode, repeat("", "[", "")),
                Arguments.of("json unterminated string", (Decode) JsonRegisterCodec::decode, repeat("[\"", "ab", "")),
                Arguments.of("colon many devices", (Decode) LegacyRegisterCodec::decode, repeat("", colonDevice, "")),
                Arguments.of(
                        "colon long id", (Decode) LegacyRegisterCodec::decode, repeat("", "G", ",1,1,1,T,0,true:")),
                Arguments.of("colon many fields", (Decode) LegacyRegisterCodec::decode, repeat("", ",", ":")),
                Arguments.of("colon separators only", (Decode) LegacyRegisterCodec::decode, repeat("", ":", "")),
                Arguments.of("colon no separator", (Decode) LegacyRegisterCodec::decode, repeat("", "a,", "")),
                Arguments.of(
                        "pod many devices", (Decode) PodDevicesCodec::decode, repeat("", "GPU-a,NVIDIA,1000,10:", ";")),
                Arguments.of(
                        "pod many containers",
                        (Decode) PodDevicesCodec::decode,
                        repeat("", "GPU-a,NVIDIA,1000,10:;", "")),
                Arguments.of("pod empty containers", (Decode) PodDevicesCodec::decode, repeat("", ";", "")),
                Arguments.of("pod empty devices", (Decode) PodDevicesCodec::decode, repeat("", ":", ";")),
                Arguments.of("pod many fields", (Decode) PodDevicesCodec::decode, repeat("", ",", ":;")),
                Arguments.of(
                        "handshake long tail",
                        (Decode) HandshakeCodec::decode,
                        repeat("Requesting_2024-01-23 04:30:04", "0", "")),
                Arguments.of(
                        "lock long name", (Decode) NodeLockCodec::decode, repeat("2026-08-01T06:00:00Z,ns,", "p", "")),
                Arguments.of(
                        "lock many commas", (Decode) NodeLockCodec::decode, repeat("2026-08-01T06:00:00Z", ",", "")),
                Arguments.of(
                        "lock long fraction", (Decode) NodeLockCodec::decode, repeat("2026-08-01T06:00:00.", "1", "Z")),
                Arguments.of("unix long number", (Decode) UnixTimeCodec::decode, repeat("1", "0", "")));
    }

    interface Decode {
        Object decode(String s) throws AnnotationFormatException;
    }

    /** Bytes this thread allocated while decoding {@code input}; fails on anything but a value or a typed error. */
    private static long allocatedBy(Decode decoder, String input) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        try {
            decoder.decode(input);
        } catch (AnnotationFormatException e) {
            assertThat(e.getMessage()).as("error message").isNotBlank().hasSizeLessThan(2_000);
        } catch (Throwable t) {
            fail("decoder threw " + t + " for a " + input.length() + "-char input", t);
        }
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void tenMegabyteInputUsesLinearMemory(String name, Decode decoder, IntFunction<String> shape) {
        String small = shape.apply(MB);
        String large = shape.apply(10 * MB);
        Assertions.assertTimeoutPreemptively(
                Duration.ofSeconds(30),
                () -> {
                    allocatedBy(decoder, small); // warm up
                    long smallBytes = allocatedBy(decoder, small);
                    long largeBytes = allocatedBy(decoder, large);
                    assertThat(largeBytes)
                            .as("bytes allocated for %d chars", large.length())
                            .isLessThanOrEqualTo(MAX_BYTES_PER_CHAR * large.length());
                    assertThat(largeBytes)
                            .as("10 MB vs 1 MB allocation (1 MB run: %d bytes)", smallBytes)
                            .isLessThanOrEqualTo(20 * smallBytes + 4 * MB);
                },
                name);
    }
}
