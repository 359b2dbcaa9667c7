package io.hami.protocol.config;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * One mapping of the device config file, as a {@link ConfigSection} reads it: typed getters that fall back to a
 * default when the key is absent and fail with the key's path otherwise. It remembers which keys were read so the
 * loader can report the rest as unknown.
 */
public final class ConfigReader {
    private final String source;
    private final String path;
    private final JsonNode node;
    private final List<String> warnings;
    private final Set<String> unread = new LinkedHashSet<>();

    ConfigReader(String source, String path, JsonNode node, List<String> warnings) {
        this.source = source;
        this.path = path;
        this.node = node;
        this.warnings = warnings;
        node.propertyNames().forEach(unread::add);
    }

    boolean isEmpty() {
        return node.isEmpty();
    }

    ConfigReader section(String key) throws DeviceConfigException {
        JsonNode v = take(key);
        if (v == null || v.isNull()) {
            return new ConfigReader(source, path + key + ".", JsonNodeFactory.instance.objectNode(), warnings);
        }
        if (!v.isObject()) {
            throw wrongType(key, v, "a mapping");
        }
        return new ConfigReader(source, path + key + ".", v, warnings);
    }

    public String string(String key, String fallback) throws DeviceConfigException {
        JsonNode v = take(key);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isString()) {
            throw wrongType(key, v, "a string");
        }
        return v.stringValue().trim();
    }

    /** A scalar read as text, for string keys that files often write as a number. */
    public String scalarText(String key, String fallback) throws DeviceConfigException {
        JsonNode v = take(key);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isValueNode()) {
            throw wrongType(key, v, "a string or number");
        }
        return v.asString();
    }

    public String oneOf(String key, String fallback, List<String> allowed) throws DeviceConfigException {
        String v = string(key, fallback);
        if (!allowed.contains(v)) {
            throw new DeviceConfigException(where(key) + ": want one of " + allowed + ", got \"" + v + "\"");
        }
        return v;
    }

    public boolean bool(String key, boolean fallback) throws DeviceConfigException {
        JsonNode v = take(key);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isBoolean()) {
            throw wrongType(key, v, "true or false");
        }
        return v.booleanValue();
    }

    public int int32(String key, int fallback, int min) throws DeviceConfigException {
        long v = int64(key, fallback);
        if (v < min || v > Integer.MAX_VALUE) {
            throw new DeviceConfigException(
                    where(key) + ": want an integer from " + min + " to " + Integer.MAX_VALUE + ", got " + v);
        }
        return (int) v;
    }

    public long int64(String key, long fallback) throws DeviceConfigException {
        JsonNode v = take(key);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw wrongType(key, v, "an integer");
        }
        return v.longValue();
    }

    public double positive(String key, double fallback) throws DeviceConfigException {
        JsonNode v = take(key);
        if (v == null || v.isNull()) {
            return fallback;
        }
        if (!v.isNumber() || !(v.doubleValue() > 0) || Double.isInfinite(v.doubleValue())) {
            throw wrongType(key, v, "a positive number");
        }
        return v.doubleValue();
    }

    /**
     * Accepts the keys of {@code accepted} present in this mapping without reading them, with a warning for each
     * ("{@code <path>.<key> <why>; ignored}"): upstream keys this project does not act on.
     */
    public void ignore(Set<String> accepted, String why) {
        for (String key : remainingIn(accepted)) {
            warnings.add("device config " + source + ": " + path + key + " " + why + "; ignored");
        }
    }

    /** Keys of {@code allowed} present in this mapping, marked as read. */
    List<String> remainingIn(Set<String> allowed) {
        var found = unread.stream().filter(allowed::contains).toList();
        found.forEach(unread::remove);
        return found;
    }

    /** @param wanted what the top level accepts, for the message; ignored below the top */
    void rejectUnknown(String wanted) throws DeviceConfigException {
        if (!unread.isEmpty()) {
            String key = unread.iterator().next();
            throw new DeviceConfigException("device config " + source + ": unknown key " + path + key
                    + (path.isEmpty() ? " (want " + wanted + ")" : ""));
        }
    }

    private JsonNode take(String key) {
        unread.remove(key);
        return node.get(key);
    }

    private DeviceConfigException wrongType(String key, JsonNode v, String want) {
        String shown = v.isContainer() ? (v.isArray() ? "a list" : "a mapping") : v.toString();
        return new DeviceConfigException(where(key) + ": want " + want + ", got " + shown);
    }

    private String where(String key) {
        return "device config " + source + ": key " + path + key;
    }
}
