package io.hami.lab.kubescheduler;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.slf4j.Logger;

/**
 * Failed binds and filters counted by cause: the extender's error text with the pod, the node, other pods and times
 * folded out, so that a thousand binds failing for one reason read as one line with a count. Each cause is logged at
 * INFO the 1st, 10th, 100th, ... time it is seen (a run's log explains every count in its report without a line per
 * failure); the rest go to DEBUG.
 */
final class FailureCauses {
    private static final Pattern OTHER_POD = Pattern.compile("\\b[a-z0-9][-a-z0-9]*/[a-z0-9][-.a-z0-9]*-\\d+\\b");
    private static final Pattern TIME = Pattern.compile("\\b\\d{4}-\\d{2}-\\d{2}T[0-9:.]+Z\\b");
    private static final Pattern LONG_NUMBER = Pattern.compile("(?<![.\\d])\\d{3,}(?![.\\d])");

    private final Logger log;
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    public FailureCauses(Logger log) {
        this.log = log;
    }

    /**
     * The cause of {@code error} for the pod {@code namespace/name} on {@code node} (null when there is none): the text
     * with {@code <pod>}, {@code <node>}, {@code <other pod>}, {@code <time>} and {@code <n>} in place of what differs
     * from one failure to the next.
     */
    static String cause(String error, String namespace, String name, String node) {
        String s = error == null || error.isBlank() ? "(no error text)" : error.strip();
        s = s.replace(namespace + "/" + name, "<pod>");
        s = TIME.matcher(s).replaceAll("<time>");
        s = OTHER_POD.matcher(s).replaceAll("<other pod>");
        s = s.replaceAll("\\b" + Pattern.quote(name) + "\\b", "<pod>");
        if (node != null && !node.isEmpty()) {
            s = s.replaceAll("\\b" + Pattern.quote(node) + "\\b", "<node>");
        }
        return LONG_NUMBER.matcher(s).replaceAll("<n>");
    }

    /**
     * Counts one failure of {@code what} ({@code "bind"}, {@code "filter"}) and logs it as the class says.
     *
     * @param node the node of a bind, null for a filter
     */
    public void record(String what, String namespace, String name, String node, String error) {
        String cause = what + ": " + cause(error, namespace, name, node);
        int n = counts.computeIfAbsent(cause, k -> new AtomicInteger()).incrementAndGet();
        String target = node == null ? "" : " to " + node;
        if (powerOfTen(n)) {
            log.info(
                    "{} of {}/{}{} failed (cause seen {} time{}, counted in the report): {}",
                    what,
                    namespace,
                    name,
                    target,
                    n,
                    n == 1 ? "" : "s",
                    error);
        } else {
            log.debug("{} of {}/{}{} failed: {}", what, namespace, name, target, error);
        }
    }

    /** Every cause with its count, most frequent first. */
    public Map<String, Integer> counts() {
        var sorted = new TreeMap<String, Integer>();
        counts.forEach((k, v) -> sorted.put(k, v.get()));
        var out = new LinkedHashMap<String, Integer>();
        sorted.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }

    /** One INFO line per cause with its count; for the end of a run. */
    public void logSummary() {
        counts().forEach((cause, n) -> log.info(
                "{} failed {} time{}: {}",
                cause.substring(0, cause.indexOf(':')),
                n,
                n == 1 ? "" : "s",
                cause.substring(cause.indexOf(':') + 2)));
    }

    private static boolean powerOfTen(int n) {
        while (n % 10 == 0) {
            n /= 10;
        }
        return n == 1;
    }
}
