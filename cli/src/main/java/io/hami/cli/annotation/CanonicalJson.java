package io.hami.cli.annotation;

import io.hami.protocol.annotation.AnnotationKind;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.Handshake;
import io.hami.protocol.codec.HandshakeCodec;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.codec.UnixTimeCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.MigPlacement;
import io.hami.protocol.device.MigProfile;
import io.hami.protocol.device.PodDevices;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The canonical JSON of each annotation kind, the form operators read and write: every field present, in
 * a fixed order, times as text in the annotation's own format. Encoding is strict: an unknown or a missing field is an
 * error naming it (a missing number is not taken as 0), and JSON that does not parse is reported by line and column
 * in plain words, not in the parser's.
 */
final class CanonicalJson {
    private static final JsonMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private CanonicalJson() {}

    /** JSON given to encode that does not describe a value of the key's kind. */
    static final class InvalidJsonException extends Exception {
        InvalidJsonException(String message) {
            super(message);
        }
    }

    static String decode(AnnotationKind kind, String value) throws AnnotationFormatException {
        JsonNode out = switch (kind) {
            case AnnotationKind.NodeRegister r -> registerJson(r.codec().decode(value));
            case AnnotationKind.PodDevicesKey p -> podJson(PodDevicesCodec.decode(value));
            case AnnotationKind.HandshakeKey h -> {
                Handshake hs = HandshakeCodec.decode(value);
                String encoded = HandshakeCodec.encode(hs);
                yield JSON.createObjectNode()
                        .put("state", hs.state().name())
                        .put("time", encoded.substring(encoded.indexOf('_') + 1));
            }
            case AnnotationKind.NodeLockKey l -> {
                NodeLock lock = NodeLockCodec.decode(value);
                String time = NodeLockCodec.encode(new NodeLock(lock.time(), "", ""));
                yield JSON.createObjectNode()
                        .put("time", time)
                        .put("namespace", lock.namespace())
                        .put("name", lock.name());
            }
            case AnnotationKind.VendorNodeKey v -> JSON.readTree(v.codec().toJson(value));
            case AnnotationKind.PodJsonKey p -> JSON.readTree(p.codec().toJson(value));
            case AnnotationKind.UnixTimeKey t -> {
                var instant = UnixTimeCodec.decode(value);
                yield JSON.createObjectNode()
                        .put("unix", instant.getEpochSecond())
                        .put("time", instant.toString());
            }
        };
        return JSON.writeValueAsString(out);
    }

    private static ArrayNode registerJson(List<DeviceInfo> devices) {
        ArrayNode arr = JSON.createArrayNode();
        for (DeviceInfo d : devices) {
            ObjectNode o = arr.addObject()
                    .put("id", d.id())
                    .put("index", d.index())
                    .put("count", d.count())
                    .put("devmem", d.devmem())
                    .put("devcore", d.devcore())
                    .put("type", d.type())
                    .put("numa", d.numa())
                    .put("mode", d.mode());
            ArrayNode profiles = o.putArray("migProfiles");
            for (MigProfile p : d.migProfiles()) {
                ObjectNode po = profiles.addObject()
                        .put("name", p.name())
                        .put("memoryMB", p.memoryMB())
                        .put("core", p.core())
                        .put("sliceCount", p.sliceCount());
                if (p.placements() == null) {
                    po.putNull("placements"); // the plugin wrote none: kept apart from [] to write it back exactly
                } else {
                    ArrayNode placements = po.putArray("placements");
                    p.placements()
                            .forEach(pl -> placements
                                    .addObject()
                                    .put("start", pl.start())
                                    .put("size", pl.size()));
                }
            }
            o.put("health", d.health());
        }
        return arr;
    }

    private static ArrayNode podJson(PodDevices pod) {
        ArrayNode arr = JSON.createArrayNode();
        for (List<ContainerDevice> container : pod.containers()) {
            ArrayNode c = arr.addArray();
            for (ContainerDevice d : container) {
                c.addObject()
                        .put("uuid", d.uuid())
                        .put("type", d.type())
                        .put("usedmem", d.usedmem())
                        .put("usedcores", d.usedcores());
            }
        }
        return arr;
    }

    static String encode(AnnotationKind kind, String json) throws InvalidJsonException {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JacksonException e) {
            throw new InvalidJsonException(JsonSyntax.describe(e));
        }
        try {
            return switch (kind) {
                case AnnotationKind.NodeRegister r -> register(r.codec(), registerDevices(root));
                case AnnotationKind.PodDevicesKey p -> PodDevicesCodec.encode(podDevices(root));
                case AnnotationKind.HandshakeKey h -> {
                    var o = object(root, "handshake", List.of("state", "time"));
                    String state = text(o, "state", "handshake");
                    if (!state.equals("Requesting") && !state.equals("Reported")) {
                        throw new InvalidJsonException(
                                "handshake state must be Requesting or Reported, got \"" + state + "\"");
                    }
                    // Parsing the assembled value checks the time with the codec's own rules.
                    yield HandshakeCodec.encode(HandshakeCodec.decode(state + "_" + text(o, "time", "handshake")));
                }
                case AnnotationKind.NodeLockKey l -> {
                    var o = object(root, "lock", List.of("time", "namespace", "name"));
                    String ns = text(o, "namespace", "lock");
                    String name = text(o, "name", "lock");
                    if (ns.isEmpty() != name.isEmpty()) {
                        throw new InvalidJsonException(
                                "lock namespace and name must both be set, or both be empty (a legacy lock)");
                    }
                    NodeLock time = NodeLockCodec.decode(text(o, "time", "lock"));
                    yield NodeLockCodec.encode(new NodeLock(time.time(), ns, name));
                }
                case AnnotationKind.VendorNodeKey v -> v.codec().fromJson(json);
                case AnnotationKind.PodJsonKey p -> p.codec().fromJson(json);
                case AnnotationKind.UnixTimeKey t -> {
                    var o = object(root, "time", List.of("unix", "time"));
                    JsonNode unix = o.get("unix");
                    if (!unix.isIntegralNumber() || !unix.canConvertToLong()) {
                        throw new InvalidJsonException("time: unix must be whole seconds as a number, got " + unix);
                    }
                    // Both fields say the same instant; one edited without the other is a mistake, not a choice.
                    String time = text(o, "time", "time");
                    String expected = UnixTimeCodec.decode(Long.toString(unix.longValue()))
                            .toString();
                    if (!time.equals(expected)) {
                        throw new InvalidJsonException("time: \"time\" is \"" + time + "\" but unix " + unix.longValue()
                                + " is " + expected + "; give both for the same instant");
                    }
                    yield Long.toString(unix.longValue());
                }
            };
        } catch (AnnotationFormatException e) {
            throw new InvalidJsonException(e.getMessage());
        }
    }

    /** The register value; an error where the key's format cannot carry the devices' MIG profiles (the colon form). */
    private static String register(RegisterCodec codec, List<DeviceInfo> devices)
            throws InvalidJsonException, AnnotationFormatException {
        String value = codec.encode(devices);
        if (profileCount(devices) > 0 && profileCount(codec.decode(value)) != profileCount(devices)) {
            throw new InvalidJsonException("this register format carries no migProfiles; give \"migProfiles\":[]");
        }
        return value;
    }

    private static int profileCount(List<DeviceInfo> devices) {
        return devices.stream().mapToInt(d -> d.migProfiles().size()).sum();
    }

    private static List<DeviceInfo> registerDevices(JsonNode root) throws InvalidJsonException {
        if (!root.isArray()) {
            throw new InvalidJsonException("register JSON must be an array of devices");
        }
        var devices = new ArrayList<DeviceInfo>();
        for (int i = 0; i < root.size(); i++) {
            String where = "device " + i;
            var o = object(
                    root.get(i),
                    where,
                    List.of(
                            "id",
                            "index",
                            "count",
                            "devmem",
                            "devcore",
                            "type",
                            "numa",
                            "mode",
                            "migProfiles",
                            "health"));
            int index = int32(o, "index", where);
            if (index < 0) {
                throw new InvalidJsonException(where + ": index must not be negative");
            }
            JsonNode health = o.get("health");
            if (!health.isBoolean()) {
                throw new InvalidJsonException(where + ": health must be true or false");
            }
            devices.add(new DeviceInfo(
                    text(o, "id", where),
                    index,
                    int32(o, "count", where),
                    int32(o, "devmem", where),
                    int32(o, "devcore", where),
                    text(o, "type", where),
                    int32(o, "numa", where),
                    text(o, "mode", where),
                    health.booleanValue(),
                    migProfiles(o.get("migProfiles"), where)));
        }
        return devices;
    }

    private static List<MigProfile> migProfiles(JsonNode list, String device) throws InvalidJsonException {
        if (!list.isArray()) {
            throw new InvalidJsonException(device + ": migProfiles must be an array of MIG profiles ([] for none)");
        }
        var profiles = new ArrayList<MigProfile>();
        for (int i = 0; i < list.size(); i++) {
            String where = device + " MIG profile " + i;
            var o = object(list.get(i), where, List.of("name", "memoryMB", "core", "sliceCount", "placements"));
            profiles.add(new MigProfile(
                    text(o, "name", where),
                    (int) whole(o, "memoryMB", Integer.MAX_VALUE, where),
                    (int) whole(o, "core", Integer.MAX_VALUE, where),
                    whole(o, "sliceCount", MigPlacement.MAX_UINT32, where),
                    placements(o.get("placements"), where)));
        }
        return profiles;
    }

    /** The placements, or null for {@code null}: the register writes a nil list as {@code null}, not {@code []}. */
    private static List<MigPlacement> placements(JsonNode list, String profile) throws InvalidJsonException {
        if (list.isNull()) {
            return null;
        }
        if (!list.isArray()) {
            throw new InvalidJsonException(profile + ": placements must be an array of placements, or null");
        }
        var placements = new ArrayList<MigPlacement>();
        for (int i = 0; i < list.size(); i++) {
            String where = profile + " placement " + i;
            var o = object(list.get(i), where, List.of("start", "size"));
            placements.add(new MigPlacement(
                    whole(o, "start", MigPlacement.MAX_UINT32, where),
                    whole(o, "size", MigPlacement.MAX_UINT32, where)));
        }
        return placements;
    }

    /** A whole number from 0 to {@code max}, the range the register reads back. */
    private static long whole(ObjectNode o, String key, long max, String where) throws InvalidJsonException {
        JsonNode v = o.get(key);
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0 || v.longValue() > max) {
            throw new InvalidJsonException(
                    where + ": " + key + " must be a whole number from 0 to " + max + ", got " + v);
        }
        return v.longValue();
    }

    private static PodDevices podDevices(JsonNode root) throws InvalidJsonException {
        if (!root.isArray()) {
            throw new InvalidJsonException("pod devices JSON must be an array with one array per container");
        }
        var containers = new ArrayList<List<ContainerDevice>>();
        for (int c = 0; c < root.size(); c++) {
            JsonNode container = root.get(c);
            if (!container.isArray()) {
                throw new InvalidJsonException("container " + c + " must be an array of devices");
            }
            var devices = new ArrayList<ContainerDevice>();
            for (int d = 0; d < container.size(); d++) {
                String where = "container " + c + " device " + d;
                var o = object(container.get(d), where, List.of("uuid", "type", "usedmem", "usedcores"));
                devices.add(new ContainerDevice(
                        text(o, "uuid", where),
                        text(o, "type", where),
                        int32(o, "usedmem", where),
                        int32(o, "usedcores", where)));
            }
            containers.add(devices);
        }
        return new PodDevices(containers);
    }

    /** {@code node} as an object with exactly the fields {@code fields}: none unknown, none missing. */
    private static ObjectNode object(JsonNode node, String where, List<String> fields) throws InvalidJsonException {
        if (node == null || !node.isObject()) {
            throw new InvalidJsonException(where + " must be a JSON object");
        }
        for (String name : node.propertyNames()) {
            if (!fields.contains(name)) {
                throw new InvalidJsonException(
                        where + ": unknown field \"" + name + "\" (known: " + String.join(", ", fields) + ")");
            }
        }
        List<String> missing = fields.stream()
                .filter(f -> !node.has(f))
                .map(f -> "\"" + f + "\"")
                .toList();
        if (!missing.isEmpty()) {
            throw new InvalidJsonException(where + ": missing " + String.join(", ", missing)
                    + " (every field of the canonical form must be given)");
        }
        return (ObjectNode) node;
    }

    /** A string member (present: {@link #object} checked). */
    private static String text(ObjectNode o, String key, String where) throws InvalidJsonException {
        JsonNode v = o.get(key);
        if (!v.isString()) {
            throw new InvalidJsonException(where + ": " + key + " must be a string, got " + v);
        }
        return v.stringValue();
    }

    private static int int32(ObjectNode o, String key, String where) throws InvalidJsonException {
        JsonNode v = o.get(key);
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            throw new InvalidJsonException(where + ": " + key + " must be a 32-bit integer, got " + v);
        }
        return v.intValue();
    }
}
