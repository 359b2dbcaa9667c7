package io.hami.protocol.codec;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.MigPlacement;
import io.hami.protocol.device.MigProfile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The JSON register annotation (NVIDIA's): a JSON array byte-compatible with Go's {@code encoding/json}
 * (docs/upstream.md#json-register). Key order {@code id, index, count, devmem, devcore, type, numa,
 * mode, migProfiles, health}; zero values omitted; keys read case-insensitively; unknown keys ignored; every number a
 * non-negative int32, except {@code numa}, which may also be -1 (none known, design D9) and is then written as
 * {@code "numa":-1}, as Go writes it.
 *
 * <p>{@code migProfiles} (docs/mig-design.md §1.2) is left out when empty; inside it every key is written ({@code
 * name, memoryMB, core, sliceCount, placements}, a nil list as {@code null}), {@code sliceCount} and the placements'
 * {@code start, size} are uint32s. Repeated keys behave as in Go, which decodes a list into the elements a previous
 * value left behind.
 */
public final class JsonRegisterCodec {
    private static final List<String> KEYS =
            List.of("id", "index", "count", "devmem", "devcore", "type", "numa", "mode", "migProfiles", "health");
    private static final List<String> PROFILE_KEYS = List.of("name", "memoryMB", "core", "sliceCount", "placements");
    private static final List<String> PLACEMENT_KEYS = List.of("start", "size");
    private static final String UINT32 = "a whole number from 0 to " + MigPlacement.MAX_UINT32;

    private JsonRegisterCodec() {}

    public static List<DeviceInfo> decode(String value) throws AnnotationFormatException {
        JsonNode root = GoJson.arrayOrNull(value, "register annotation");
        if (root == null) {
            return List.of();
        }
        var devices = new ArrayList<DeviceInfo>(root.size());
        for (int n = 0; n < root.size(); n++) {
            devices.add(decodeDevice(root.get(n), n));
        }
        return List.copyOf(devices);
    }

    private static DeviceInfo decodeDevice(JsonNode node, int n) throws AnnotationFormatException {
        if (!node.isObject()) {
            throw new AnnotationFormatException("device " + n + " must be a JSON object, got " + GoJson.kind(node));
        }
        var fields = new Fields(n);
        // Go matches keys case-insensitively and the last duplicate wins; unknown keys are ignored.
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String key = GoJson.field(e.getKey(), KEYS);
            if (key != null) {
                fields.set(key, e.getValue());
            }
        }
        return fields.toDevice();
    }

    /** Go's decoding of a JSON list into a slice of structs; elements past the length stay for a later value. */
    private static final class Slice<T> {
        private final java.util.function.Supplier<T> zero;
        private List<T> backing = new ArrayList<>();
        private boolean nil = true;
        private int length;

        Slice(java.util.function.Supplier<T> zero) {
            this.zero = zero;
        }

        interface Element<T> {
            void decode(T target, JsonNode node, int i) throws AnnotationFormatException;
        }

        /** Decodes a JSON list (or null) the way Go does; the caller has checked the type. */
        void set(JsonNode v, Element<T> element) throws AnnotationFormatException {
            if (v.isNull() || v.isEmpty()) {
                backing = new ArrayList<>(); // Go: nil for null, a new empty slice for []
                nil = v.isNull();
                length = 0;
                return;
            }
            nil = false;
            for (int i = 0; i < v.size(); i++) {
                if (i >= backing.size()) {
                    backing.add(zero.get());
                }
                if (!v.get(i).isNull()) { // null leaves the element as it is
                    element.decode(backing.get(i), v.get(i), i);
                }
            }
            length = v.size();
        }

        List<T> elements() {
            return backing.subList(0, length);
        }

        boolean nil() {
            return nil;
        }
    }

    /** One MIG profile in the making. */
    private static final class ProfileFields {
        private String name = "";
        private int memoryMB;
        private int core;
        private long sliceCount;
        private final Slice<long[]> placements = new Slice<>(() -> new long[2]);

        MigProfile toProfile() {
            return new MigProfile(
                    name,
                    memoryMB,
                    core,
                    sliceCount,
                    placements.nil()
                            ? null
                            : placements.elements().stream()
                                    .map(p -> new MigPlacement(p[0], p[1]))
                                    .toList());
        }
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
        private final Slice<ProfileFields> profiles = new Slice<>(ProfileFields::new);

        Fields(int n) {
            this.n = n;
        }

        void set(String key, JsonNode v) throws AnnotationFormatException {
            if (key.equals("migProfiles")) {
                if (!v.isNull() && !v.isArray()) {
                    throw invalid(key, v, "a list");
                }
                profiles.set(v, this::profile);
                return;
            }
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

        private void profile(ProfileFields p, JsonNode node, int i) throws AnnotationFormatException {
            String where = "MIG profile " + i + " of device " + n;
            if (!node.isObject()) {
                throw new AnnotationFormatException(where + " must be a JSON object, got " + GoJson.kind(node));
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                String key = GoJson.field(e.getKey(), PROFILE_KEYS);
                JsonNode v = e.getValue();
                if (key == null || (v.isNull() && !key.equals("placements"))) {
                    continue;
                }
                switch (key) {
                    case "name" -> p.name = string(key, v, where);
                    case "memoryMB" -> p.memoryMB = (int) number(key, v, 0, Integer.MAX_VALUE, where);
                    case "core" -> p.core = (int) number(key, v, 0, Integer.MAX_VALUE, where);
                    case "sliceCount" -> p.sliceCount = number(key, v, 0, MigPlacement.MAX_UINT32, where);
                    case "placements" -> {
                        if (!v.isNull() && !v.isArray()) {
                            throw invalid(key, v, "a list", where);
                        }
                        p.placements.set(
                                v, (slot, pn, j) -> placement(slot, pn, "MIG placement " + j + " of " + where));
                    }
                    default -> throw new IllegalStateException(key);
                }
            }
        }

        private void placement(long[] slot, JsonNode node, String where) throws AnnotationFormatException {
            if (!node.isObject()) {
                throw new AnnotationFormatException(where + " must be a JSON object, got " + GoJson.kind(node));
            }
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                String key = GoJson.field(e.getKey(), PLACEMENT_KEYS);
                if (key != null && !e.getValue().isNull()) {
                    slot[key.equals("start") ? 0 : 1] = number(key, e.getValue(), 0, MigPlacement.MAX_UINT32, where);
                }
            }
        }

        private String string(String key, JsonNode v) throws AnnotationFormatException {
            return string(key, v, "device " + n);
        }

        private String string(String key, JsonNode v, String where) throws AnnotationFormatException {
            if (!v.isString()) {
                throw invalid(key, v, "a string", where);
            }
            return GoJson.sanitize(v.stringValue()); // Go reads an invalid surrogate escape as U+FFFD
        }

        /** An integer from {@code min} to MaxInt32; {@code want} says so in the error. */
        private int integer(String key, JsonNode v, int min, String want) throws AnnotationFormatException {
            if (!isWhole(v, min, Integer.MAX_VALUE)) {
                throw invalid(key, v, want);
            }
            return (int) v.longValue();
        }

        private long number(String key, JsonNode v, long min, long max, String where) throws AnnotationFormatException {
            if (!isWhole(v, min, max)) {
                throw invalid(key, v, max == Integer.MAX_VALUE ? GoStrconv.NON_NEGATIVE_INT32 : UINT32, where);
            }
            return v.longValue();
        }

        private AnnotationFormatException invalid(String key, JsonNode v, String want) {
            return invalid(key, v, want, "device " + n);
        }

        private static AnnotationFormatException invalid(String key, JsonNode v, String want, String where) {
            return new AnnotationFormatException(
                    "invalid " + key + " field in " + where + ": " + shown(v) + " (want " + want + ")");
        }

        DeviceInfo toDevice() {
            return new DeviceInfo(
                    id,
                    index,
                    count,
                    devmem,
                    devcore,
                    type,
                    numa,
                    mode,
                    health,
                    profiles.elements().stream().map(ProfileFields::toProfile).toList());
        }
    }

    /** Go rejects 1.0 and 1e2 for integer fields, as Jackson's integral-number check does. */
    private static boolean isWhole(JsonNode v, long min, long max) {
        return v.isIntegralNumber() && v.canConvertToLong() && v.longValue() >= min && v.longValue() <= max;
    }

    /** The offending JSON value as written, shortened to keep the message on one line. */
    private static String shown(JsonNode v) {
        String json = v.toString();
        return json.length() > 80 ? json.substring(0, 77) + "..." : json;
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
                if (!d.migProfiles().isEmpty()) {
                    g.writeName("migProfiles");
                    g.writeStartArray();
                    d.migProfiles().forEach(p -> profile(g, p));
                    g.writeEndArray();
                }
                if (d.health()) {
                    g.writeBooleanProperty("health", true);
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        });
    }

    /** Upstream's {@code MigProfile}: no omitempty inside, a nil placement list as {@code null}. */
    private static void profile(tools.jackson.core.JsonGenerator g, MigProfile p) {
        g.writeStartObject();
        g.writeStringProperty("name", GoJson.sanitize(p.name()));
        g.writeNumberProperty("memoryMB", p.memoryMB());
        g.writeNumberProperty("core", p.core());
        g.writeNumberProperty("sliceCount", p.sliceCount());
        g.writeName("placements");
        if (p.placements() == null) {
            g.writeNull();
        } else {
            g.writeStartArray();
            for (MigPlacement pl : p.placements()) {
                g.writeStartObject();
                g.writeNumberProperty("start", pl.start());
                g.writeNumberProperty("size", pl.size());
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeEndObject();
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
