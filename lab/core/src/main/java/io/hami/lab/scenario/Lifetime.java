package io.hami.lab.scenario;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How long a pod runs: {@code 20s}, or uniformly between two durations, {@code 5s..30s}.
 */
public record Lifetime(Duration min, Duration max) {
    public Lifetime {
        if (min.isNegative() || max.compareTo(min) < 0) {
            throw new IllegalArgumentException("a lifetime range needs 0 <= min <= max, got " + min + ".." + max);
        }
    }

    /** Reads {@code 20s} or {@code 5s..30s}. */
    public static Lifetime parse(String text) {
        int dots = text.indexOf("..");
        if (dots < 0) {
            Duration d = DurationText.parse(text.strip());
            return new Lifetime(d, d);
        }
        return new Lifetime(
                DurationText.parse(text.substring(0, dots).strip()),
                DurationText.parse(text.substring(dots + 2).strip()));
    }

    public Duration draw(RandomGenerator random) {
        long spread = max.toMillis() - min.toMillis();
        return spread == 0 ? min : min.plusMillis(random.nextLong(spread + 1));
    }

    @Override
    public String toString() {
        return min.equals(max) ? DurationText.format(min) : DurationText.format(min) + ".." + DurationText.format(max);
    }
}
