package io.hami.lab.apiserver;

import java.util.Map;
import java.util.WeakHashMap;
import tools.jackson.databind.JsonNode;

/**
 * The stored objects' JSON and labels, read once: a LIST with selectors reads every object of its resource, and
 * parsing all of them again for each LIST made selector LISTs the API server's largest cost once thousands of pods
 * exist. Stored states are immutable strings replaced on every write, so a state's parse stays valid as long as the
 * string is referenced; the cache holds it weakly. Callers must not change the trees.
 */
final class ParsedStates {
    /** One stored state: its JSON and its labels. */
    record Parsed(JsonNode json, Map<String, String> labels) {}

    private final Map<String, Parsed> cache = new WeakHashMap<>();

    synchronized Parsed of(String state) {
        return cache.computeIfAbsent(state, s -> {
            JsonNode json = Json.parse(s);
            return new Parsed(json, Selection.labelsOf(json));
        });
    }
}
