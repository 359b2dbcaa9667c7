package io.hami.lab.check;

import io.hami.lab.metrics.Latencies;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * How long pending pods waited after the devices they then got were released, until they were bound.
 *
 * @param pods how many waits were measured
 */
public record ReleaseWaits(int pods, Duration min, Duration median, Duration p95, Duration max) {
    public static final ReleaseWaits NONE =
            new ReleaseWaits(0, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO);

    static ReleaseWaits of(List<Duration> waits) {
        var s = new Latencies.Stats(
                waits.stream().mapToLong(Duration::toNanos).sorted().toArray());
        return new ReleaseWaits(s.count(), s.quantile(0), s.quantile(0.5), s.quantile(0.95), s.max());
    }

    /** One line: {@code 12 pods, min 0.21 s, median 1.03 s, p95 9.87 s, max 10.2 s}. */
    public String describe() {
        if (pods == 0) {
            return "no pod waited for a release";
        }
        return String.format(
                Locale.ROOT,
                "%d pods, min %.2f s, median %.2f s, p95 %.2f s, max %.2f s",
                pods,
                seconds(min),
                seconds(median),
                seconds(p95),
                seconds(max));
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
