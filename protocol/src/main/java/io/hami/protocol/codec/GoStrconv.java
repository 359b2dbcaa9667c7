package io.hami.protocol.codec;

import io.hami.protocol.device.DeviceInfo;
import java.util.OptionalLong;

/**
 * Go's {@code strconv} number and bool syntax, which upstream writers and readers use: ASCII digits only,
 * an optional leading sign, leading zeros allowed, no whitespace. ({@link Integer#parseInt} would also
 * accept non-ASCII digits.)
 */
final class GoStrconv {
    private GoStrconv() {}

    /** The value of {@code s} if it is a base-10 integer within [min, max]. */
    static OptionalLong parseInt(String s, long min, long max) {
        int n = s.length();
        if (n == 0) {
            return OptionalLong.empty();
        }
        int i = 0;
        boolean negative = false;
        char first = s.charAt(0);
        if (first == '+' || first == '-') {
            negative = first == '-';
            i = 1;
            if (n == 1) {
                return OptionalLong.empty();
            }
        }
        long value = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return OptionalLong.empty();
            }
            // Accumulate negatively so Long.MIN_VALUE fits; any bound is within long range.
            if (value < (Long.MIN_VALUE + (c - '0')) / 10) {
                return OptionalLong.empty();
            }
            value = value * 10 - (c - '0');
        }
        if (!negative) {
            if (value == Long.MIN_VALUE) {
                return OptionalLong.empty();
            }
            value = -value;
        }
        return value < min || value > max ? OptionalLong.empty() : OptionalLong.of(value);
    }

    /** What {@link #parseNonNegativeInt32} accepts, for error messages. */
    static final String NON_NEGATIVE_INT32 = "a whole number from 0 to " + Integer.MAX_VALUE;

    /**
     * Every number of the protocol (grants, counts, memory, cores, NUMA node, index) is a non-negative int32:
     * no writer emits a negative one, and a negative or overflowing one read from a pod or node would change
     * the usage the scheduler counts.
     */
    static OptionalLong parseNonNegativeInt32(String s) {
        return parseInt(s, 0, Integer.MAX_VALUE);
    }

    /** What {@link #parseNumaNode} accepts, for error messages. */
    static final String NUMA_NODE = "-1 (no NUMA node known) or " + NON_NEGATIVE_INT32;

    /**
     * A NUMA node: a non-negative int32, or {@link DeviceInfo#NO_NUMA} (-1), which upstream's
     * plugins write when the library knows no NUMA node for a device (design D9). Anything below -1 is no writer's
     * value and is refused like any other negative number.
     */
    static OptionalLong parseNumaNode(String s) {
        return parseInt(s, DeviceInfo.NO_NUMA, Integer.MAX_VALUE);
    }

    /** Go's {@code strconv.ParseBool}: 1 t T TRUE true True 0 f F FALSE false False; null when invalid. */
    static Boolean parseBool(String s) {
        return switch (s) {
            case "1", "t", "T", "TRUE", "true", "True" -> Boolean.TRUE;
            case "0", "f", "F", "FALSE", "false", "False" -> Boolean.FALSE;
            default -> null;
        };
    }

    /** {@code s} in double quotes, shortened so error messages stay one readable line. */
    static String quote(String s) {
        String shown = s.length() > 80 ? s.substring(0, 77) + "..." : s;
        var b = new StringBuilder(shown.length() + 2).append('"');
        shown.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (cp < 0x20 || cp == 0x7f || (cp >= 0xd800 && cp <= 0xdfff)) {
                        b.append(String.format("\\u%04x", cp));
                    } else {
                        b.appendCodePoint(cp);
                    }
                }
            }
        });
        return b.append('"').toString();
    }
}
