package io.hami.lab.apiserver;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A WATCH request's options, read and checked as kube-apiserver reads them ({@code ListOptions}): where the watch
 * starts ({@code resourceVersion}, {@code sendInitialEvents}, {@code resourceVersionMatch}), whether it gets bookmarks
 * ({@code allowWatchBookmarks}) and when it ends ({@code timeoutSeconds}).
 */
final class WatchParameters {

    static final String NOT_OLDER_THAN = "NotOlderThan";

    private WatchParameters() {}

    /**
     * What kube-apiserver's {@code ValidateListOptions} refuses in a watch, in its words ({@code field: Type: detail});
     * empty when the options are valid.
     */
    static List<String> problems(RequestUri uri) {
        List<String> problems = new ArrayList<>();
        Optional<String> match = uri.param("resourceVersionMatch").filter(m -> !m.isEmpty());
        boolean initialEvents = uri.param("sendInitialEvents").isPresent();
        if (initialEvents && !match.equals(Optional.of(NOT_OLDER_THAN))) {
            problems.add("resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to "
                    + NOT_OLDER_THAN);
        }
        if (match.isPresent()) {
            if (!initialEvents) {
                problems.add("resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless"
                        + " sendInitialEvents is provided");
            }
            if (!match.get().equals(NOT_OLDER_THAN)) {
                problems.add("resourceVersionMatch: Unsupported value: \"" + match.get() + "\": supported values: \""
                        + NOT_OLDER_THAN + "\"");
            }
        }
        return problems;
    }

    static WatchHub.Start start(RequestUri uri) {
        String version = uri.param("resourceVersion").orElse("0");
        Boolean initialEvents = uri.flag("sendInitialEvents").orElse(null);
        return new WatchHub.Start(
                version.matches("\\d{1,18}") ? Long.parseLong(version) : 0,
                initialEvents,
                uri.flag("allowWatchBookmarks").orElse(false));
    }

    /** {@code timeoutSeconds}; empty when absent or 0 (kube-apiserver then picks 30 to 60 minutes; here: none). */
    static Optional<Duration> timeout(RequestUri uri) {
        return uri.param("timeoutSeconds")
                .filter(t -> t.matches("\\d{1,9}"))
                .map(Long::parseLong)
                .filter(seconds -> seconds > 0)
                .map(Duration::ofSeconds);
    }
}
