package io.hami.scheduler.fit;

import io.hami.protocol.fit.DeviceUsage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Orders a node's devices by the device (GPU) policy before a vendor's fit walks them from the last
 * element (docs/upstream.md#device-score): binpack tries the fullest device first, spread the emptiest.
 */
public final class DeviceOrder {
    private DeviceOrder() {}

    /** A device with its score for the container being placed. */
    record Scored(DeviceUsage usage, float score) {
        int numa() {
            return usage.device().numa();
        }
    }

    /** {@code scored} sorted for {@code policy}; the sort is stable, like Go's for small lists. */
    static List<DeviceUsage> sort(List<Scored> scored, String policy, boolean numaBind) {
        var list = new ArrayList<>(scored);
        list.sort(comparator(policy.trim(), numaBind));
        return list.stream().map(Scored::usage).toList();
    }

    private static final Comparator<Scored> SCORE_ASC = Comparator.comparingDouble(Scored::score);
    private static final Comparator<Scored> NUMA_ASC = Comparator.comparingInt(Scored::numa);

    private static Comparator<Scored> comparator(String policy, boolean numaBind) {
        if (policy.contains(",") || policy.equals("numa")) {
            return chain(policy, numaBind);
        }
        if (policy.equals("mutex")) {
            return Comparator.<Scored>comparingInt(s -> s.usage().used())
                    .reversed()
                    .thenComparing(NUMA_ASC);
        }
        if (numaBind) {
            Comparator<Scored> byScore = policy.equals("binpack") ? SCORE_ASC : SCORE_ASC.reversed();
            Comparator<Scored> byNuma = policy.equals("binpack") ? NUMA_ASC.reversed() : NUMA_ASC;
            return (a, b) -> a.numa() == b.numa() ? byScore.compare(a, b) : byNuma.compare(a, b);
        }
        if (policy.equals("binpack")) {
            return SCORE_ASC.thenComparing(NUMA_ASC);
        }
        // spread, and topology-aware as upstream: the NVIDIA fit then chooses among the fitting devices by pair scores.
        return SCORE_ASC.reversed().thenComparing(NUMA_ASC);
    }

    /** Comma lists such as {@code binpack,numa}: keys in the order written, ties by device index. */
    private static Comparator<Scored> chain(String policy, boolean numaBind) {
        var keys = new LinkedHashSet<String>();
        for (String token : policy.split(",", -1)) {
            String t = token.trim();
            if (t.equals("binpack") || t.equals("spread") || t.equals("numa")) {
                keys.add(t);
            }
        }
        var ordered = new ArrayList<>(keys.isEmpty() ? List.of("spread") : keys);
        if (numaBind && !ordered.getFirst().equals("numa")) {
            ordered.remove("numa");
            ordered.addFirst("numa");
        }
        Comparator<Scored> c = null;
        for (String key : ordered) {
            Comparator<Scored> next = switch (key) {
                case "binpack" -> SCORE_ASC;
                case "spread" -> SCORE_ASC.reversed();
                default -> NUMA_ASC;
            };
            c = c == null ? next : c.thenComparing(next);
        }
        return c.thenComparingInt(s -> s.usage().device().index());
    }
}
