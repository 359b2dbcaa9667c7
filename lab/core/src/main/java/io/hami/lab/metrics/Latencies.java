package io.hami.lab.metrics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Latency samples by operation ({@code filter}, {@code bind}, {@code allocate}, ...), recorded by the simulated
 * components around their calls to the real ones. Thread-safe; every sample is kept, so percentiles are exact.
 */
public final class Latencies {
    public static final String FILTER = "filter";
    public static final String PRIORITIZE = "prioritize";
    /** Binds that bound the pod. */
    public static final String BIND = "bind";
    /** Binds the extender refused (node-lock contention, no longer fits, ...). */
    public static final String BIND_REFUSED = "bind refused";

    public static final String ALLOCATE = "allocate";

    private final Map<String, Samples> byOperation = new ConcurrentHashMap<>();

    public void record(String operation, Duration took) {
        byOperation.computeIfAbsent(operation, o -> new Samples()).add(took.toNanos());
    }

    /** Every operation with at least one sample, in name order. */
    public Map<String, Stats> stats() {
        var out = new TreeMap<String, Stats>();
        byOperation.forEach((op, samples) -> out.put(op, samples.stats()));
        return out;
    }

    /**
     * Summary of one operation's samples.
     *
     * @param sortedNanos every sample, ascending
     */
    public record Stats(long[] sortedNanos) {
        public static final Stats EMPTY = new Stats(new long[0]);

        public int count() {
            return sortedNanos.length;
        }

        /** The sample at quantile {@code q} (nearest rank), or zero without samples. */
        public Duration quantile(double q) {
            if (sortedNanos.length == 0) {
                return Duration.ZERO;
            }
            int rank = (int) Math.ceil(q * sortedNanos.length);
            return Duration.ofNanos(sortedNanos[Math.clamp(rank - 1, 0, sortedNanos.length - 1)]);
        }

        public Duration max() {
            return sortedNanos.length == 0 ? Duration.ZERO : Duration.ofNanos(sortedNanos[sortedNanos.length - 1]);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Stats s && Arrays.equals(sortedNanos, s.sortedNanos);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(sortedNanos);
        }

        @Override
        public String toString() {
            return "Stats[count=" + count() + ", p50=" + quantile(0.5) + ", p99=" + quantile(0.99) + "]";
        }
    }

    private static final class Samples {
        private final List<Long> nanos = new ArrayList<>();

        synchronized void add(long value) {
            nanos.add(value);
        }

        synchronized Stats stats() {
            return new Stats(nanos.stream().mapToLong(Long::longValue).sorted().toArray());
        }
    }
}
