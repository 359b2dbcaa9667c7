package io.hami.protocol.codec;

import io.hami.protocol.device.DeviceInfo;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The JSON register annotation (NVIDIA's): a JSON array byte-compatible with Go's {@code encoding/json}
 * (docs/upstream.md#json-register). Key order {@code id, index, count, devmem, devcore, type, numa,
 * mode, health}; zero values omitted; keys read case-insensitively; unknown keys ignored; every number a
 * non-negative int32, except {@code numa}, which may also be -1 (none known, design D9) and is then written as
 * {@code "numa":-1}, as Go writes it.
 */
public final class JsonRegisterCodec {
    private static final List<String> KEYS =
            List.of("id", "index", "count", "devmem", "devcore", "type", "numa", "mode", "health");

    private JsonRegisterCodec() {}

    public static List<DeviceInfo> decode(String value) throws AnnotationFormatException {
        JsonNode root;
        try {
            root = GoJson.READER.readTree(value);
        } catch (JacksonException e) {
            throw new AnnotationFormatException("invalid JSON in register annotation: " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode()) {
            throw new AnnotationFormatException("empty register annotation");
        }
        if (root.isNull()) {
            return List.of();
        }
        if (!root.isArray()) {
            throw new AnnotationFormatException("register annotation must be a JSON array, got " + kind(root));
        }
        var devices = new ArrayList<DeviceInfo>(root.size());
        for (int n = 0; n < root.size(); n++) {
            devices.add(decodeDevice(root.get(n), n));
        }
        return List.copyOf(devices);
    }

    private static DeviceInfo decodeDevice(JsonNode node, int n) throws AnnotationFormatException {
        if (!node.isObject()) {
            throw new AnnotationFormatException("device " + n + " must be a JSON object, got " + kind(node));
        }
        var fields = new Fields(n);
        // Go matches keys case-insensitively and the last duplicate wins; unknown keys are ignored.
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String key = field(e.getKey());
            if (key != null) {
                fields.set(key, e.getValue());
            }
        }
        return fields.toDevice();
    }

    /**
     * The field a JSON key names, or null. Go's decoder compares keys folded by its {@code foldName}: ASCII
     * letters upper-cased, any other rune mapped by {@code unicode.ToUpper}. ({@link String#equalsIgnoreCase}
     * differs: it would also take "\u0130d" for "id".)
     */
    private static String field(String key) {
        if (KEYS.contains(key)) {
            return key;
        }
        var folded = new StringBuilder(key.length());
        key.codePoints()
                .forEach(cp -> folded.appendCodePoint(
                        cp < 0x80 ? (cp >= 'a' && cp <= 'z' ? cp - ('a' - 'A') : cp) : Character.toUpperCase(cp)));
        String f = folded.toString();
        for (String k : KEYS) {
            if (k.toUpperCase(java.util.Locale.ROOT).equals(f)) {
                return k;
            }
        }
        return null;
    }

    /** Fields of one device in the making, starting from Go's zero values. */
    private static final class Fields {
        private final int n;
        private String id = "";
        private String type = "";
        private String mode = "";
        private int index;
        private int count;
        private int devmem;
        private int devcore;
        private int numa;
        private boolean health;

        Fields(int n) {
            this.n = n;
        }

        void set(String key, JsonNode v) throws AnnotationFormatException {
            if (v.isNull()) {
                return; // Go leaves the field at its current value for a JSON null
            }
            switch (key) {
                case "id" -> id = string(key, v);
                case "type" -> type = string(key, v);
                case "mode" -> mode = string(key, v);
                // Every number is a non-negative int32 (GoStrconv.parseNonNegativeInt32 says why).
                case "index" -> index = integer(key, v, 0, GoStrconv.NON_NEGATIVE_INT32);
                case "count" -> count = integer(key, v, 0, GoStrconv.NON_NEGATIVE_INT32);
                case "devmem" -> devmem = integer(key, v, 0, GoStrconv.NON_NEGATIVE_INT32);
                case "devcore" -> devcore = integer(key, v, 0, GoStrconv.NON_NEGATIVE_INT32);
                case "numa" -> numa = integer(key, v, DeviceInfo.NO_NUMA, GoStrconv.NUMA_NODE);
                case "health" -> {
                    if (!v.isBoolean()) {
                        throw invalid(key, v, "a boolean");
                    }
                    health = v.booleanValue();
                }
                default -> throw new IllegalStateException(key);
            }
        }

        private String string(String key, JsonNode v) throws AnnotationFormatException {
            if (!v.isString()) {
                throw invalid(key, v, "a string");
            }
            return GoJson.sanitize(v.stringValue()); // Go reads an invalid surrogate escape as U+FFFD
        }

        /** An integer from {@code min} to MaxInt32; {@code want} says so in the error. */
        private int integer(String key, JsonNode v, int min, String want) throws AnnotationFormatException {
            // Go rejects 1.0 and 1e2 for integer fields, as Jackson's integral-number check does.
            if (!v.isIntegralNumber()
                    || !v.canConvertToLong()
                    || v.longValue() < min
                    || v.longValue() > Integer.MAX_VALUE) {
                throw invalid(key, v, want);
            }
            return (int) v.longValue();
        }

        private AnnotationFormatException invalid(String key, JsonNode v, String want) {
            return new AnnotationFormatException(
                    "invalid " + key + " field in device " + n + ": " + shown(v) + " (want " + want + ")");
        }

        DeviceInfo toDevice() {
            return new DeviceInfo(id, index, count, devmem, devcore, type, numa, mode, health);
        }
    }

    /** The offending JSON value as written, shortened to keep the message on one line. */
    private static String shown(JsonNode v) {
        String json = v.toString();
        return json.length() > 80 ? json.substring(0, 77) + "..." : json;
    }

    private static String kind(JsonNode node) {
        return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Go's {@code json.Marshal} of the devices sorted by index, with zero values omitted. */
    public static String encode(List<DeviceInfo> devices) {
        var sorted = devices.stream()
                .sorted(Comparator.comparingInt(DeviceInfo::index))
                .toList();
        return GoJson.write(g -> {
            g.writeStartArray();
            for (DeviceInfo d : sorted) {
                g.writeStartObject();
                string(g, "id", d.id());
                number(g, "index", d.index());
                number(g, "count", d.count());
                number(g, "devmem", d.devmem());
                number(g, "devcore", d.devcore());
                string(g, "type", d.type());
                number(g, "numa", d.numa());
                string(g, "mode", d.mode());
                if (d.health()) {
                    g.writeBooleanProperty("health", true);
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    private static void string(tools.jackson.core.JsonGenerator g, String key, String value) {
        if (!value.isEmpty()) {
            g.writeStringProperty(key, GoJson.sanitize(value));
        }
    }

    private static void number(tools.jackson.core.JsonGenerator g, String key, int value) {
        if (value != 0) {
            g.writeNumberProperty(key, value);
        }
    }
}
