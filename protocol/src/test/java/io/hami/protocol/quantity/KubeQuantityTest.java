package io.hami.protocol.quantity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** apimachinery's ParseQuantity + AsInt64, case by case (docs/upstream.md#requests). */
class KubeQuantityTest {

    static final List<Arguments> INT64S = List.of(
            Arguments.of("16Gi", 17179869184L),
            Arguments.of("1.5k", 1500L),
            Arguments.of("1e3", 1000L),
            Arguments.of("1E3", 1000L),
            Arguments.of("1e+3", 1000L),
            Arguments.of("-5", -5L),
            Arguments.of("+7", 7L),
            Arguments.of("0", 0L),
            Arguments.of("00", 0L),
            Arguments.of("-0", 0L),
            Arguments.of("007", 7L),
            Arguments.of("4096", 4096L),
            Arguments.of("1Ki", 1024L),
            Arguments.of("7Mi", 7L * 1024 * 1024),
            Arguments.of("99Ti", 99L << 40),
            Arguments.of("-3Gi", -3L << 30),
            Arguments.of("8k", 8000L),
            Arguments.of("1.000k", 1000L),
            Arguments.of("100.035k", 100035L),
            Arguments.of("6.987654321G", 6987654321L),
            Arguments.of("1E", 1_000_000_000_000_000_000L),
            Arguments.of("9E", 9_000_000_000_000_000_000L),
            Arguments.of("1e18", 1_000_000_000_000_000_000L),
            Arguments.of("5.", 5L),
            Arguments.of("1.G", 1_000_000_000L),
            Arguments.of("999999999999999999", 999_999_999_999_999_999L),
            Arguments.of("00000000000000000000001", 1L),
            // scanner corner cases apimachinery accepts as zero
            Arguments.of(".", 0L),
            Arguments.of("-", 0L),
            Arguments.of("Ki", 0L),
            Arguments.of("0Ti", 0L));

    @ParameterizedTest(name = "{0} = {1}")
    @FieldSource("INT64S")
    void exactInt64s(String quantity, long value) throws Exception {
        assertThat(KubeQuantity.asInt64(quantity)).hasValue(value);
    }

    /** Valid quantities that apimachinery stores as decimals or at a negative scale. */
    static final List<String> NOT_INT64S = List.of(
            "16.0Gi",
            "1000m",
            "1.0",
            "0.5",
            "0m",
            "1.5",
            "1.0000k",
            "3n",
            "1e-3",
            "1e19",
            "10E",
            "12E",
            "1Pi",
            "1Ei",
            "123456Gi",
            "0.5Mi",
            "100.035Ki",
            "9223372036854775807",
            "-9223372036854775808",
            "1000000000000000000",
            "1.5e-2147483648");

    @ParameterizedTest(name = "{0}")
    @FieldSource("NOT_INT64S")
    void validButNotInt64(String quantity) throws Exception {
        assertThat(KubeQuantity.asInt64(quantity)).isEqualTo(OptionalLong.empty());
    }

    /** apimachinery's own invalid list, plus suffix and numeric errors. */
    static final List<String> INVALID = List.of(
            "",
            "1.1.M",
            "1+1.0M",
            "0.1mi",
            "0.1am",
            "aoeu",
            ".5i",
            "1i",
            "-3.01i",
            "-3.01e-",
            " 1",
            "1 ",
            "1e",
            "1ki",
            "1x",
            "1e3.5",
            "1eM",
            "1e99999999999999999999",
            "Pi",
            "-Ei",
            "١٢");

    @ParameterizedTest(name = "\"{0}\"")
    @FieldSource("INVALID")
    void invalidSyntaxIsATypedError(String quantity) {
        assertThatThrownBy(() -> KubeQuantity.asInt64(quantity))
                .isInstanceOf(QuantityFormatException.class)
                .hasMessageStartingWith("invalid quantity \"" + quantity + "\": ");
    }

    @ParameterizedTest(name = "\"{0}\"")
    @FieldSource("INVALID")
    void invalidSyntaxReadsAsInvalidAmount(String quantity) {
        assertThat(ResourceAmount.of(quantity)).isInstanceOf(ResourceAmount.Invalid.class);
    }
}
