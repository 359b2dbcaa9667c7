package io.hami.lab.apiserver;

import io.fabric8.mockwebserver.http.MockResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * The answer to a plain HTTP watch: not a body but a stream, which {@link ApiHttpServer} writes line by line as the
 * watch's events come ({@code Transfer-Encoding: chunked}, as kube-apiserver streams it), and ends at the request's
 * {@code timeoutSeconds}. With {@code allowWatchBookmarks=true}, {@code bookmark} sends a BOOKMARK; it is run when
 * kube-apiserver's watch cache would send one (every minute, and 2 s before the end).
 */
final class ChunkedWatch extends MockResponse {

    /** kube-apiserver's {@code bookmarkFrequency}. */
    static final Duration BOOKMARK_PERIOD = Duration.ofMinutes(1);

    /** How long before its end kube-apiserver sends a watch its last bookmark ({@code cacheWatcher.nextBookmarkTime}). */
    static final Duration BOOKMARK_BEFORE_END = Duration.ofSeconds(2);

    private final FilteredWatch watch;
    private final Optional<Duration> timeout;
    private final boolean bookmarks;
    private final Runnable bookmark;

    ChunkedWatch(FilteredWatch watch, Optional<Duration> timeout, boolean bookmarks, Runnable bookmark) {
        this.watch = watch;
        this.timeout = timeout;
        this.bookmarks = bookmarks;
        this.bookmark = bookmark;
        setResponseCode(200);
        // kube-apiserver's JSON watch: the media type of the serializer, without parameters.
        setHeader("Content-Type", "application/json");
        setHeader("Cache-Control", "no-cache, private");
    }

    FilteredWatch watch() {
        return watch;
    }

    /** When the watch ends ({@code timeoutSeconds}); empty: when the client goes. */
    Optional<Duration> timeout() {
        return timeout;
    }

    boolean bookmarks() {
        return bookmarks;
    }

    Runnable bookmark() {
        return bookmark;
    }

    /** When, after the start, the bookmark before the end is due; empty without a timeout or one too short for it. */
    Optional<Duration> bookmarkBeforeEnd() {
        return timeout.map(t -> t.minus(BOOKMARK_BEFORE_END)).filter(at -> at.isPositive());
    }
}
