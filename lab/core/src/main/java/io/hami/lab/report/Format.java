package io.hami.lab.report;

import java.time.Duration;
import java.util.Locale;

/** How durations and shares read in reports. */
public final class Format {
    private Format() {}

    /** {@code 850µs}, {@code 12.3ms}, {@code 1.25s}. */
    public static String latency(Duration d) {
        double micros = d.toNanos() / 1e3;
        if (micros < 1000) {
            return String.format(Locale.ROOT, "%.0fµs", micros);
        }
        if (micros < 1_000_000) {
            return String.format(Locale.ROOT, micros < 10_000 ? "%.2fms" : "%.1fms", micros / 1e3);
        }
        return String.format(Locale.ROOT, "%.2fs", micros / 1e6);
    }

    /** {@code 12.3s} */
    public static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
    }

    /** {@code 73%}, of a whole that may be 0. */
    public static String percent(long part, long whole) {
        return whole == 0 ? "-" : Math.round(100.0 * part / whole) + "%";
    }
}
