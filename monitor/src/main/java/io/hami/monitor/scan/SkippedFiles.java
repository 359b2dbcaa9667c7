package io.hami.monitor.scan;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Remembers which region files were unusable, so each is reported once (a log line and the counter) when it turns
 * unusable or its reason changes, not on every scan. A file that is usable again or gone is forgotten.
 */
public final class SkippedFiles {
    /** A file to report: it turned unusable for {@code reason}, counted under {@code kind}. */
    public record NewSkip(Path file, String reason, String kind) {}

    private Map<Path, String> known = Map.of();

    /** The files of {@code scan} to report now; remembers the scan's set for the next call. */
    public List<NewSkip> update(Map<Path, String> skipped) {
        var previous = known;
        known = new HashMap<>(skipped);
        return skipped.entrySet().stream()
                .filter(e -> !e.getValue().equals(previous.get(e.getKey())))
                .map(e -> new NewSkip(e.getKey(), e.getValue(), kind(e.getKey(), e.getValue())))
                .sorted(java.util.Comparator.comparing(NewSkip::file))
                .toList();
    }

    /**
     * The counter's {@code reason} label: the reader's reason without the file name it starts with, up to its
     * details (after a colon or a parenthesis), letters only, words joined by {@code _}: few label values.
     */
    static String kind(Path file, String reason) {
        String text = reason.startsWith(file + ": ")
                ? reason.substring(file.toString().length() + 2)
                : reason;
        int end = text.length();
        for (char c : new char[] {':', '('}) {
            int at = text.indexOf(c);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        String kind = text.substring(0, end)
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z]+", "_")
                .replaceAll("^_+|_+$", "");
        if (kind.length() > 40) {
            kind = kind.substring(0, 40);
        }
        return kind.isEmpty() ? "unknown" : kind;
    }
}
