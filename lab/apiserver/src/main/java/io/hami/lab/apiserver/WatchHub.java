package io.hami.lab.apiserver;

import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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

    WatchHub(ParsedStates parsed) {
        this.parsed = parsed;
    }

    /**
     * A WebSocket response that streams the selected objects of {@code scope}: first ADDED for those in the store
     * newer than {@code sinceResourceVersion} (0: all of them), then every change.
     */
    synchronized MockResponse open(
            AttributeSet scope,
            Selection selection,
            long sinceResourceVersion,
            Supplier<Collection<Map.Entry<AttributeSet, String>>> store) {
        FilteredWatch watch = new FilteredWatch(scope, selection, watches::remove);
        var newer = new ArrayList<Map.Entry<Long, String>>();
        for (Map.Entry<AttributeSet, String> entry : store.get()) {
            JsonNode object = parsed.of(entry.getValue()).json();
            long version = resourceVersion(object);
            if (watch.selects(entry.getKey(), object) && version > sinceResourceVersion) {
                newer.add(Map.entry(version, entry.getValue()));
            }
        }
        // In resourceVersion order, as the API server's watch: a watcher may take each event as proof of all before it.
        newer.sort(Map.Entry.comparingByKey());
        newer.forEach(e -> watch.send("ADDED", e.getValue()));
        watches.add(watch);
        return new MockResponse().withWebSocketUpgrade(watch);
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
