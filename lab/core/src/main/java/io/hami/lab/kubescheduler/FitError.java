package io.hami.lab.kubescheduler;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * kube-scheduler's message for a pod no node can take: {@code 0/8 nodes are available: 3 <reason>, 5 <reason>.},
 * the extender's reasons grouped and counted, most frequent first.
 */
final class FitError {
    private FitError() {}

    static String message(int nodes, Map<String, String> failed) {
        var counts = new TreeMap<String, Integer>();
        failed.values().forEach(reason -> counts.merge(reason, 1, Integer::sum));
        String reasons = counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue()
                        .reversed()
                        .thenComparing(Map.Entry.comparingByKey()))
                .map(e -> e.getValue() + " " + e.getKey())
                .collect(Collectors.joining(", "));
        return "0/" + nodes + " nodes are available" + (reasons.isEmpty() ? "." : ": " + reasons + ".");
    }
}
