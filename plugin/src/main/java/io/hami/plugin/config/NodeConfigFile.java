package io.hami.plugin.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Upstream's per-node device-plugin configuration ({@code config.json}, docs/upstream.md#plugin-node-config):
 * {@code {"nodeconfig":[{"name":"node-1","devicesplitcount":4,"devicememoryscaling":1.5,"devicecorescaling":1,
 * "preconfigureddevicememory":16384,"filterdevices":{"uuid":["GPU-..."],"index":[3]}}]}}.
 * The entries named after this node apply, later ones winning; keys that are absent or null override nothing.
 * Unlike upstream, an unreadable file is an error rather than silently ignored: a typo must not quietly change
 * how cards are shared.
 */
public final class NodeConfigFile {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private NodeConfigFile() {}

    /** The overrides {@code file} holds for {@code node}; {@link Sharing#NONE} when it names other nodes only. */
    public static Sharing read(Path file, String node) throws IOException {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (JacksonException e) {
            throw new IOException("node config " + file + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
        JsonNode entries = root == null ? null : root.get("nodeconfig");
        if (entries == null || entries.isNull()) {
            return Sharing.NONE;
        }
        if (!entries.isArray()) {
            throw new IOException("node config " + file + ": nodeconfig must be a JSON array");
        }
        Sharing sharing = Sharing.NONE;
        for (JsonNode entry : entries) {
            JsonNode name = entry.get("name");
            if (name != null && name.isString() && name.stringValue().equals(node)) {
                try {
                    sharing = sharing.overriddenBy(new Sharing(
                            integer(entry, "devicesplitcount"),
                            number(entry, "devicememoryscaling"),
                            number(entry, "devicecorescaling"),
                            longInteger(entry, "preconfigureddevicememory"),
                            filter(entry)));
                } catch (IllegalArgumentException e) {
                    throw new IOException("node config " + file + ", node " + node + ": " + e.getMessage(), e);
                }
            }
        }
        return sharing;
    }

    private static OptionalInt integer(JsonNode entry, String key) throws IOException {
        JsonNode v = entry.get(key);
        if (v == null || v.isNull()) {
            return OptionalInt.empty();
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new IOException("node config key " + key + " must be an integer, got " + v);
        }
        return OptionalInt.of(v.intValue());
    }

    private static OptionalLong longInteger(JsonNode entry, String key) throws IOException {
        JsonNode v = entry.get(key);
        if (v == null || v.isNull()) {
            return OptionalLong.empty();
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new IOException("node config key " + key + " must be an integer, got " + v);
        }
        return OptionalLong.of(v.longValue());
    }

    /** {@code filterdevices}: an object with the lists {@code uuid} (strings) and {@code index} (integers), both optional. */
    private static Optional<DeviceFilter> filter(JsonNode entry) throws IOException {
        JsonNode v = entry.get("filterdevices");
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        String shape = "node config key filterdevices must be an object {\"uuid\": [\"GPU-...\"], \"index\": [0]}";
        if (!v.isObject()) {
            throw new IOException(shape + ", got " + v);
        }
        for (Map.Entry<String, JsonNode> field : v.properties()) {
            if (!field.getKey().equals("uuid") && !field.getKey().equals("index")) {
                throw new IOException(shape + "; unknown key " + field.getKey());
            }
        }
        Set<String> uuids = new LinkedHashSet<>();
        for (JsonNode u : list(v, "uuid")) {
            if (!u.isString() || u.stringValue().isBlank()) {
                throw new IOException("node config key filterdevices.uuid must list UUIDs (strings), got " + u);
            }
            uuids.add(u.stringValue());
        }
        Set<Integer> indexes = new LinkedHashSet<>();
        for (JsonNode i : list(v, "index")) {
            if (!i.isIntegralNumber() || !i.canConvertToInt() || i.intValue() < 0) {
                throw new IOException(
                        "node config key filterdevices.index must list device indexes (integers from 0), got " + i);
            }
            indexes.add(i.intValue());
        }
        return Optional.of(new DeviceFilter(uuids, indexes));
    }

    private static Iterable<JsonNode> list(JsonNode filter, String key) throws IOException {
        JsonNode v = filter.get(key);
        if (v == null || v.isNull()) {
            return Set.of();
        }
        if (!v.isArray()) {
            throw new IOException("node config key filterdevices." + key + " must be a JSON array, got " + v);
        }
        return v.values();
    }

    private static OptionalDouble number(JsonNode entry, String key) throws IOException {
        JsonNode v = entry.get(key);
        if (v == null || v.isNull()) {
            return OptionalDouble.empty();
        }
        if (!v.isNumber()) {
            throw new IOException("node config key " + key + " must be a number, got " + v);
        }
        return OptionalDouble.of(v.doubleValue());
    }
}
