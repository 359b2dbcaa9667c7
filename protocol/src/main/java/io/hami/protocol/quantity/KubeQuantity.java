package io.hami.protocol.quantity;

import java.util.OptionalLong;

/**
 * Reads a Kubernetes quantity string exactly like apimachinery's {@code resource.ParseQuantity} followed by
 * {@code Quantity.AsInt64()}, which is how upstream HAMi reads every device resource
 * (docs/upstream.md#requests).
 *
 * <p>{@code AsInt64} succeeds only when {@code ParseQuantity} stored the value on its int64 fast path with a
 * non-negative decimal scale; anything stored as an arbitrary-precision decimal answers "not ok" even when
 * its value is a whole number. So {@code 16Gi}, {@code 1.5k}, {@code 1e3} and {@code -5} are int64s, while
 * {@code 16.0Gi}, {@code 1000m}, {@code 1.0}, {@code 1Pi} and any 19-digit number are not.
 */
public final class KubeQuantity {

    private static final String FORMAT_WRONG =
            "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
    private static final String NUMERIC = "unable to parse numeric part of quantity";
    private static final String SUFFIX = "unable to parse quantity's suffix";
    private static final String SUFFIX_LETTERS = "eEinumkKMGTP";
    /** Decimal digits an int64 always holds (apimachinery's maxInt64Factors). */
    private static final int INT64_DIGITS = 18;
    /** The smallest scale apimachinery keeps on the fast path (nano). */
    private static final int NANO = -9;

    private KubeQuantity() {}

    /**
     * The value of {@code quantity} if apimachinery would report it as an exact int64, empty if it is a
     * valid quantity that is not one.
     *
     * @throws QuantityFormatException if {@code quantity} is not a Kubernetes quantity
     */
    public static OptionalLong asInt64(String quantity) throws QuantityFormatException {
        if (quantity.isEmpty()) {
            throw new QuantityFormatException(quantity, FORMAT_WRONG);
        }
        Parts parts = scan(quantity);
        Suffix suffix = interpret(quantity, parts.suffix());

        int scale;
        int precision;
        long mantissa = 1;
        if (suffix.base() == 10) {
            scale = suffix.exponent();
            precision = INT64_DIGITS - parts.num().length() - parts.denom().length();
        } else {
            scale = 0;
            if (suffix.exponent() >= 0 && parts.denom().isEmpty()) {
                mantissa = 1L << suffix.exponent();
                // apimachinery's estimate of the decimal digits a power of two uses, computed in float32
                precision = 15 - parts.num().length() - (int) ((float) suffix.exponent() * 3 / 10) - 1;
            } else {
                precision = -1;
            }
        }

        if (precision >= 0) {
            scale -= parts.denom().length(); // int32 arithmetic, wraps like Go
            if (scale >= NANO) {
                long digits = Long.parseLong(parts.num() + parts.denom()); // at most 18 ASCII digits
                try {
                    long value = Math.multiplyExact(digits, mantissa);
                    return fastPathInt64(parts.positive() ? value : -value, scale);
                } catch (ArithmeticException overflow) {
                    // apimachinery falls back to its decimal representation, handled below
                }
            }
        }
        // The decimal (inf.Dec) representation: valid when the number has a digit, never an int64.
        if (parts.value().chars().noneMatch(KubeQuantity::isDigit)) {
            throw new QuantityFormatException(quantity, NUMERIC);
        }
        return OptionalLong.empty();
    }

    /** {@code int64Amount.AsInt64}: exact only at scale 0 or above, without overflow. */
    private static OptionalLong fastPathInt64(long value, int scale) {
        if (scale < 0) {
            return OptionalLong.empty();
        }
        long result = value;
        for (int i = 0; i < scale && result != 0; i++) {
            try {
                result = Math.multiplyExact(result, 10L);
            } catch (ArithmeticException overflow) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(result);
    }

    /**
     * @param positive false for a leading {@code -}
     * @param value    the numeric text before the suffix, sign included (used only to check for a digit)
     * @param num      integer digits without leading zeros, {@code "0"} when there are none
     * @param denom    fraction digits, possibly empty
     * @param suffix   the suffix text, not yet interpreted
     */
    private record Parts(boolean positive, String value, String num, String denom, String suffix) {}

    /** apimachinery's {@code parseQuantityString}: splits the text; rejects only malformed suffix text. */
    private static Parts scan(String s) throws QuantityFormatException {
        int end = s.length();
        int pos = 0;
        boolean positive = true;
        if (s.charAt(0) == '-') {
            positive = false;
            pos++;
        } else if (s.charAt(0) == '+') {
            pos++;
        }
        while (pos < end && s.charAt(pos) == '0') {
            pos++;
        }
        if (pos == end) {
            return new Parts(positive, "0", "0", "", "");
        }
        int numStart = pos;
        while (pos < end && isDigit(s.charAt(pos))) {
            pos++;
        }
        if (pos == end) {
            return new Parts(positive, s, s.substring(numStart), "", "");
        }
        String num = pos == numStart ? "0" : s.substring(numStart, pos);

        String denom = "";
        if (s.charAt(pos) == '.') {
            pos++;
            int denomStart = pos;
            while (pos < end && isDigit(s.charAt(pos))) {
                pos++;
            }
            denom = s.substring(denomStart, pos);
            if (pos == end) {
                return new Parts(positive, s, num, denom, "");
            }
        }
        String value = s.substring(0, pos);

        int suffixStart = pos;
        while (pos < end && SUFFIX_LETTERS.indexOf(s.charAt(pos)) >= 0) {
            pos++;
        }
        if (pos < end && (s.charAt(pos) == '-' || s.charAt(pos) == '+')) {
            pos++;
        }
        while (pos < end && isDigit(s.charAt(pos))) {
            pos++;
        }
        if (pos < end) {
            throw new QuantityFormatException(s, FORMAT_WRONG);
        }
        return new Parts(positive, value, num, denom, s.substring(suffixStart));
    }

    /** @param base 10 for decimal SI and exponents, 2 for binary SI */
    private record Suffix(int base, int exponent) {}

    private static Suffix interpret(String quantity, String suffix) throws QuantityFormatException {
        switch (suffix) {
            case "" -> {
                return new Suffix(10, 0);
            }
            case "n" -> {
                return new Suffix(10, -9);
            }
            case "u" -> {
                return new Suffix(10, -6);
            }
            case "m" -> {
                return new Suffix(10, -3);
            }
            case "k" -> {
                return new Suffix(10, 3);
            }
            case "M" -> {
                return new Suffix(10, 6);
            }
            case "G" -> {
                return new Suffix(10, 9);
            }
            case "T" -> {
                return new Suffix(10, 12);
            }
            case "P" -> {
                return new Suffix(10, 15);
            }
            case "E" -> {
                return new Suffix(10, 18);
            }
            case "Ki" -> {
                return new Suffix(2, 10);
            }
            case "Mi" -> {
                return new Suffix(2, 20);
            }
            case "Gi" -> {
                return new Suffix(2, 30);
            }
            case "Ti" -> {
                return new Suffix(2, 40);
            }
            case "Pi" -> {
                return new Suffix(2, 50);
            }
            case "Ei" -> {
                return new Suffix(2, 60);
            }
            default -> {
                if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
                    try {
                        // Go parses an int64 and then truncates it to int32; (int) does the same.
                        return new Suffix(10, (int) Long.parseLong(suffix.substring(1)));
                    } catch (NumberFormatException e) {
                        throw new QuantityFormatException(quantity, SUFFIX);
                    }
                }
                throw new QuantityFormatException(quantity, SUFFIX);
            }
        }
    }

    private static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }
}
