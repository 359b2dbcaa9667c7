package io.hami.lab.apiserver;

import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * The open watches and the store changes they are told about. Opening a watch (snapshot of the store plus
 * registration) and recording a change are mutually exclusive, so a watch misses no change and sees none twice.
 */
final class WatchHub {

    /**
     * One store change: the entry's key and JSON before and after ({@code null} when absent), and for a deletion the
     * resourceVersion it was given.
     */
    record Change(AttributeSet oldKey, String oldState, AttributeSet newKey, String newState, String deletedVersion) {}

    private final Set<FilteredWatch> watches = ConcurrentHashMap.newKeySet();
    /** A change's old state was the new state of the change before, so each state is parsed once. */
    private final ParsedStates parsed;

    /** The highest resourceVersion stored so far: what a bookmark carries. */
    private final LongSupplier currentVersion;

    WatchHub(ParsedStates parsed, LongSupplier currentVersion) {
        this.parsed = parsed;
        this.currentVersion = currentVersion;
    }

    /**
     * Where a watch starts. {@code initialEvents}: the request's {@code sendInitialEvents} (null when absent);
     * {@code since}: its {@code resourceVersion} (0 when absent).
     */
    record Start(long since, Boolean initialEvents, boolean bookmarks) {

        /** Whether the watch starts with ADDED for every selected object, whatever its version. */
        boolean everything() {
            return Boolean.TRUE.equals(initialEvents);
        }
    }

    /**
     * Opens a watch of the selected objects of {@code scope}, to be given to a WebSocket or a chunked response. It
     * starts, as kube-apiserver's:
     * <ul>
     *   <li>{@code sendInitialEvents=true}: ADDED for every selected object, then (with bookmarks) a BOOKMARK at the
     *   current resourceVersion annotated {@code k8s.io/initial-events-end: "true"};</li>
     *   <li>{@code sendInitialEvents=false}: after {@code since} (nothing before it; from now when it is 0);</li>
     *   <li>otherwise ADDED for the objects newer than {@code since} (0: all of them).</li>
     * </ul>
     * then every change. Without watch history, "after {@code since}" is approximated as ADDED for each selected object
     * written since (see the README).
     */
    synchronized FilteredWatch open(
            AttributeSet scope,
            Selection selection,
            FilteredWatch.Kind kind,
            Start start,
            Supplier<Collection<Map.Entry<AttributeSet, String>>> store) {
        FilteredWatch watch = new FilteredWatch(scope, selection, kind, watches::remove);
        long since = start.since() == 0 && Boolean.FALSE.equals(start.initialEvents())
                ? currentVersion.getAsLong()
                : start.since();
        var newer = new ArrayList<Map.Entry<Long, String>>();
        for (Map.Entry<AttributeSet, String> entry : store.get()) {
            JsonNode object = parsed.of(entry.getValue()).json();
            long version = resourceVersion(object);
            if (watch.selects(entry.getKey(), object) && (start.everything() || version > since)) {
                newer.add(Map.entry(version, entry.getValue()));
            }
        }
        // In resourceVersion order, as the API server's watch: a watcher may take each event as proof of all before it.
        newer.sort(Map.Entry.comparingByKey());
        newer.forEach(e -> watch.send("ADDED", e.getValue()));
        if (start.everything() && start.bookmarks()) {
            watch.bookmark(currentVersion.getAsLong(), true);
        }
        watches.add(watch);
        return watch;
    }

    /**
     * Sends {@code watch} a BOOKMARK at the current resourceVersion: every change up to it has been sent to it, and
     * every later change will be (taken between writes, so no change falls in between).
     */
    synchronized void bookmark(FilteredWatch watch) {
        watch.bookmark(currentVersion.getAsLong(), false);
    }

    /** Runs {@code read} while no store mutation runs (every mutation goes through {@link #record}). */
    synchronized <T> T betweenWrites(Supplier<T> read) {
        return read.get();
    }

    /** Runs a store mutation and tells every watch what it changed. */
    synchronized void record(Supplier<Change> mutation) {
        Change change = mutation.get();
        if (Objects.equals(change.oldState(), change.newState()) || watches.isEmpty()) {
            return;
        }
        JsonNode before =
                change.oldState() == null ? null : parsed.of(change.oldState()).json();
        JsonNode after =
                change.newState() == null ? null : parsed.of(change.newState()).json();
        watches.forEach(watch -> watch.onChange(change, before, after));
    }

    private static long resourceVersion(JsonNode object) {
        String version = object.path("metadata").path("resourceVersion").asString("0");
        return version.matches("\\d{1,18}") ? Long.parseLong(version) : 0;
    }
}
