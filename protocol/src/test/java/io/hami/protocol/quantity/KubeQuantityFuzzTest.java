package io.hami.protocol.quantity;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.OptionalLong;

/** KubeQuantity against values computed independently of the parser. */
class KubeQuantityFuzzTest {
    private static final long EIGHTEEN_DIGITS = 1_000_000_000_000_000_000L;
    private static final long ELEVEN_DIGITS = 100_000_000_000L;

    @FuzzTest
    void plainIntegersUpToEighteenDigitsAreInt64s(FuzzedDataProvider data) throws Exception {
        long n = data.consumeLong();
        OptionalLong expected = n > -EIGHTEEN_DIGITS && n < EIGHTEEN_DIGITS ? OptionalLong.of(n) : OptionalLong.empty();
        assertThat(KubeQuantity.asInt64(Long.toString(n))).isEqualTo(expected);
    }

    private static long kibiCount(FuzzedDataProvider data) {
        return data.consumeBoolean() ? data.consumeLong() : data.consumeLong(-99_999_999_999L, 99_999_999_999L);
    }

    /** Ki keeps the fast path for at most 11 digits, so any such count times 1024 is exact. */
    @FuzzTest
    void kibiCountsUpToElevenDigitsAreInt64s(FuzzedDataProvider data) throws Exception {
        long n = kibiCount(data);
        OptionalLong expected =
                n > -ELEVEN_DIGITS && n < ELEVEN_DIGITS ? OptionalLong.of(n * 1024) : OptionalLong.empty();
        assertThat(KubeQuantity.asInt64(n + "Ki")).isEqualTo(expected);
    }

    @FuzzTest
    void milliValuesAreNeverInt64s(FuzzedDataProvider data) throws Exception {
        long n = data.consumeLong();
        assertThat(KubeQuantity.asInt64(n + "m")).isEmpty();
    }

    @FuzzTest
    void aFractionDigitIsNeverInt64(FuzzedDataProvider data) throws Exception {
        long n = data.consumeLong();
        assertThat(KubeQuantity.asInt64(n + ".0")).isEmpty();
    }

    @FuzzTest
    void decimalSuffixesScaleExactly(FuzzedDataProvider data) throws Exception {
        int n = data.consumeInt(-1_000_000, 1_000_000);
        assertThat(KubeQuantity.asInt64(n + "k")).hasValue(n * 1_000L);
        assertThat(KubeQuantity.asInt64(n + "M")).hasValue(n * 1_000_000L);
        assertThat(KubeQuantity.asInt64(n + "G")).hasValue(n * 1_000_000_000L);
        assertThat(KubeQuantity.asInt64(n + "e2")).hasValue(n * 100L);
    }

    private static final char[] QUANTITY_CHARS = "0123456789.+-eEinumkKMGTP x".toCharArray();

    private static String quantityLike(FuzzedDataProvider data) {
        int length = data.consumeInt(0, 24);
        var b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(data.pickValue(QUANTITY_CHARS));
        }
        return b.toString();
    }

    /** Total: any text gives a value, empty, or the typed error, never an unchecked exception. */
    @FuzzTest
    void anyTextIsReadWithoutUncheckedExceptions(FuzzedDataProvider data) {
        String text = quantityLike(data);
        assertThat(ResourceAmount.of(text)).isNotNull();
    }
}
