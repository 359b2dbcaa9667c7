package io.hami.protocol.quantity;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** KubeQuantity against values computed independently of the parser. */
class KubeQuantityProperties {
    private static final long EIGHTEEN_DIGITS = 1_000_000_000_000_000_000L;
    private static final long ELEVEN_DIGITS = 100_000_000_000L;

    @Property
    void plainIntegersUpToEighteenDigitsAreInt64s(@ForAll long n) throws Exception {
        OptionalLong expected = n > -EIGHTEEN_DIGITS && n < EIGHTEEN_DIGITS ? OptionalLong.of(n) : OptionalLong.empty();
        assertThat(KubeQuantity.asInt64(Long.toString(n))).isEqualTo(expected);
    }

    @Provide
    Arbitrary<Long> kibiCounts() {
        return Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.longs().between(-99_999_999_999L, 99_999_999_999L));
    }

    /** Ki keeps the fast path for at most 11 digits, so any such count times 1024 is exact. */
    @Property
    void kibiCountsUpToElevenDigitsAreInt64s(@ForAll("kibiCounts") long n) throws Exception {
        OptionalLong expected = n > -ELEVEN_DIGITS && n < ELEVEN_DIGITS ? OptionalLong.of(n * 1024) : OptionalLong.empty();
        assertThat(KubeQuantity.asInt64(n + "Ki")).isEqualTo(expected);
    }

    @Property
    void milliValuesAreNeverInt64s(@ForAll long n) throws Exception {
        assertThat(KubeQuantity.asInt64(n + "m")).isEmpty();
    }

    @Property
    void aFractionDigitIsNeverInt64(@ForAll long n) throws Exception {
        assertThat(KubeQuantity.asInt64(n + ".0")).isEmpty();
    }

    @Property
    void decimalSuffixesScaleExactly(@ForAll("smallCounts") int n) throws Exception {
        assertThat(KubeQuantity.asInt64(n + "k")).hasValue(n * 1_000L);
        assertThat(KubeQuantity.asInt64(n + "M")).hasValue(n * 1_000_000L);
        assertThat(KubeQuantity.asInt64(n + "G")).hasValue(n * 1_000_000_000L);
        assertThat(KubeQuantity.asInt64(n + "e2")).hasValue(n * 100L);
    }

    @Provide
    Arbitrary<Integer> smallCounts() {
        return Arbitraries.integers().between(-1_000_000, 1_000_000);
    }

    /** Total: any text gives a value, empty, or the typed error, never an unchecked exception. */
    @Property(tries = 2000)
    void anyTextIsReadWithoutUncheckedExceptions(@ForAll("quantityLike") String text) {
        assertThat(ResourceAmount.of(text)).isNotNull();
    }

    @Provide
    Arbitrary<String> quantityLike() {
        return Arbitraries.strings().withChars("0123456789.+-eEinumkKMGTP x").ofMaxLength(24);
    }
}
