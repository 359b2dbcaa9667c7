package io.hami.lab.scenario;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as scenario files write them: {@code 500ms}, {@code 20s}, {@code 1.5s}, {@code 2m}, {@code 1m30s}, {@code 1h}. */
public final class DurationText {
    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    private DurationText() {}

    /** @throws IllegalArgumentException naming the text when it is not a duration */
    public static Duration parse(String text) {
        Matcher m = PART.matcher(text);
        long nanos = 0;
        int end = 0;
        while (m.find() && m.start() == end) {
            double value = Double.parseDouble(m.group(1));
            long unit = switch (m.group(2)) {
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            nanos += Math.round(value * unit);
            end = m.end();
        }
        if (text.isEmpty() || end != text.length()) {
            throw new IllegalArgumentException(
                    "\"" + text + "\" is not a duration; write it like 500ms, 20s, 1.5s, 2m or 1m30s");
        }
        return Duration.ofNanos(nanos);
    }

    /** The shortest of {@code 250ms}, {@code 20s}, {@code 1.5s}, {@code 2m}, {@code 1m30s}. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + "ms";
        }
        if (ms < 60_000) {
            return ms % 1000 == 0 ? ms / 1000 + "s" : String.format(java.util.Locale.ROOT, "%.1fs", ms / 1000.0);
        }
        long s = ms / 1000;
        return s % 60 == 0 ? s / 60 + "m" : s / 60 + "m" + s % 60 + "s";
    }
}
