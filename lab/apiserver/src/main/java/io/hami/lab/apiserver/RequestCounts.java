package io.hami.lab.apiserver;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many requests this server answered, by verb and resource as the API server's audit log names them:
 * {@code get pods}, {@code list pods}, {@code watch nodes}, {@code patch nodes}, {@code create pods/binding},
 * {@code deletecollection pods}. Requests outside the resource API are counted under their path. Injected faults count
 * too: the client made the call.
 */
public final class RequestCounts {
    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    void count(String verb, String resource) {
        counts.computeIfAbsent(verb + " " + resource, k -> new LongAdder()).increment();
    }

    /** The counts so far, sorted by key. */
    public Map<String, Long> snapshot() {
        Map<String, Long> copy = new TreeMap<>();
        counts.forEach((k, v) -> copy.put(k, v.sum()));
        return copy;
    }

    /** The count of {@code verb resource}, e.g. {@code count("list", "pods")}. */
    public long count(String key) {
        LongAdder adder = counts.get(key);
        return adder == null ? 0 : adder.sum();
    }

    /** Starts counting from zero. */
    public void reset() {
        counts.clear();
    }

    /**
     * The verb and resource of a request ({@code path} without its query). A subresource is named after its resource:
     * {@code pods/binding}, {@code nodes/status}.
     */
    static String[] classify(String method, String path, boolean watch) {
        String[] parts = path.split("/");
        // /api/v1/... or /apis/group/version/...; then optionally namespaces/{ns}; then plural[/name[/sub]]
        int i = path.startsWith("/api/") ? 3 : path.startsWith("/apis/") ? 4 : -1;
        if (i < 0 || i >= parts.length) {
            return new String[] {method.toLowerCase(Locale.ROOT), path};
        }
        if (parts[i].equals("namespaces") && parts.length > i + 2) {
            i += 2;
        }
        String resource = parts[i];
        boolean named = parts.length > i + 1;
        if (parts.length > i + 2) {
            resource += "/" + parts[i + 2];
        }
        String verb = switch (method) {
            case "GET" -> watch ? "watch" : named ? "get" : "list";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> named ? "delete" : "deletecollection";
            default -> method.toLowerCase(Locale.ROOT);
        };
        return new String[] {verb, resource};
    }
}
