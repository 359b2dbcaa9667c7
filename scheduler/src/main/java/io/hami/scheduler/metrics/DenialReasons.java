package io.hami.scheduler.metrics;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Reduces filter's per-node reason strings to reason kinds. The strings carry counts
 * ({@code 1/2 CardInsufficientMemory, 2/2 NumaNotFit}) and free text (fail-closed details), so they cannot be
 * label values or event groupings as they are; the kinds are a small, fixed set.
 */
public final class DenialReasons {
    /** The kind for reasons this class does not recognise; keeps the label set bounded whatever filter says. */
    public static final String OTHER = "other";
    static final String UNREGISTERED = "node unregistered";
    static final String FAILS_CLOSED = "fails closed";
    static final String DEVICE_TYPE_NOT_FOUND = "Device type not found";
    /** A quantity no vendor can represent; the details name the container and resource. */
    static final String UNREPRESENTABLE = "unrepresentable request";

    /** Upstream's reason constants are all UpperCamelCase words (upstream-scheduler.md §6.5). */
    private static final String NAME = "[A-Z][A-Za-z]{0,63}";
    /** One GenReason entry, {@code <count>/<total> <Reason>}. */
    private static final Pattern COUNTED = Pattern.compile("\\d+/\\d+ (" + NAME + ")");
    /** A reason without a count, such as {@code NodeInsufficientDevice}. */
    private static final Pattern BARE = Pattern.compile(NAME);

    private DenialReasons() {
    }

    /** The distinct kinds in one node's reason, sorted. */
    public static Set<String> kinds(String reason) {
        if (reason == null || reason.isBlank()) {
            return Set.of(OTHER);
        }
        if (reason.equals(UNREGISTERED) || reason.equals(DEVICE_TYPE_NOT_FOUND)) {
            return Set.of(reason);
        }
        // Checked before splitting: the fail-closed details are free text that may contain ", ".
        if (reason.startsWith("node fails closed")) {
            return Set.of(FAILS_CLOSED);
        }
        if (reason.startsWith(UNREPRESENTABLE)) {
            return Set.of(UNREPRESENTABLE);
        }
        if (BARE.matcher(reason).matches()) {
            return Set.of(reason);
        }
        // Only counted entries are kinds here: a bare word after ", " is the tail of some free text.
        var kinds = new TreeSet<String>();
        for (String entry : reason.split(", ")) {
            var counted = COUNTED.matcher(entry);
            kinds.add(counted.matches() ? counted.group(1) : OTHER);
        }
        return Collections.unmodifiableSet(kinds);
    }

    /** Kind to the sorted nodes that failed for it, kinds sorted. */
    public static Map<String, Set<String>> nodesByKind(Map<String, String> failed) {
        var out = new TreeMap<String, Set<String>>();
        failed.forEach((node, reason) -> kinds(reason).forEach(k -> out.computeIfAbsent(k, x -> new TreeSet<>()).add(node)));
        return out;
    }
}
