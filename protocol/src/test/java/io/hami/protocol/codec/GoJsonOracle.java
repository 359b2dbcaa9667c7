package io.hami.protocol.codec;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.MigPlacement;
import io.hami.protocol.device.MigProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A test-side model of Go's {@code encoding/json} for the register annotation, written from Go's rules
 * rather than from the codec: {@link #marshal} is what {@code json.Marshal} of upstream's
 * {@code []DeviceInfo} (all fields {@code omitempty}; inside {@code migProfiles} none) produces; {@link #noisy} writes the same devices in
 * ways Go's {@code json.Unmarshal} also reads (any key order and case, explicit zero values, unknown keys,
 * whitespace, escaped characters).
 */
public final class GoJsonOracle {
    private GoJsonOracle() {}

    /** Go 1.22+ string escaping, with HTML escaping on (json.Marshal's default). */
    public static String quote(String s) {
        var b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            switch (cp) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                case '<', '>', '&', 0x2028, 0x2029 -> b.append(String.format(Locale.ROOT, "\\u%04x", cp));
                default -> {
                    if (cp < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", cp));
                    } else if (cp >= 0xd800 && cp <= 0xdfff) {
                        b.append('\ufffd'); // invalid UTF-8 / lone surrogate
                    } else {
                        b.appendCodePoint(cp);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** {@code json.Marshal} of the devices in the given order. */
    static String marshal(List<DeviceInfo> devices) {
        var b = new StringBuilder("[");
        for (int n = 0; n < devices.size(); n++) {
            DeviceInfo d = devices.get(n);
            var members = new ArrayList<String>();
            if (!d.id().isEmpty()) members.add("\"id\":" + quote(d.id()));
            if (d.index() != 0) members.add("\"index\":" + d.index());
            if (d.count() != 0) members.add("\"count\":" + d.count());
            if (d.devmem() != 0) members.add("\"devmem\":" + d.devmem());
            if (d.devcore() != 0) members.add("\"devcore\":" + d.devcore());
            if (!d.type().isEmpty()) members.add("\"type\":" + quote(d.type()));
            if (d.numa() != 0) members.add("\"numa\":" + d.numa());
            if (!d.mode().isEmpty()) members.add("\"mode\":" + quote(d.mode()));
            if (!d.migProfiles().isEmpty()) {
                var profiles = new ArrayList<String>();
                for (MigProfile p : d.migProfiles()) {
                    profiles.add("{\"name\":" + quote(p.name()) + ",\"memoryMB\":" + p.memoryMB() + ",\"core\":"
                            + p.core() + ",\"sliceCount\":" + p.sliceCount() + ",\"placements\":"
                            + (p.placements() == null
                                    ? "null"
                                    : "["
                                            + String.join(
                                                    ",",
                                                    p.placements().stream()
                                                            .map(pl -> "{\"start\":" + pl.start() + ",\"size\":"
                                                                    + pl.size() + "}")
                                                            .toList())
                                            + "]")
                            + "}");
                }
                members.add("\"migProfiles\":[" + String.join(",", profiles) + "]");
            }
            if (d.health()) members.add("\"health\":true");
            if (n > 0) b.append(',');
            b.append('{').append(String.join(",", members)).append('}');
        }
        return b.append(']').toString();
    }

    private static final String[] WS = {"", "", "", " ", "\n", "\t", "\r\n  "};

    private static String ws(Random r) {
        return WS[r.nextInt(WS.length)];
    }

    /** A key spelled with random ASCII case, as Go's case-insensitive match allows. */
    static String randomCase(String key, Random r) {
        var b = new StringBuilder(key.length());
        for (char c : key.toCharArray()) {
            b.append(r.nextBoolean() ? Character.toUpperCase(c) : c);
        }
        return b.toString();
    }

    /**
     * A JSON string literal for {@code s} with random characters written as {@code \\uXXXX} escapes (a
     * surrogate pair is escaped as a pair or not at all, as valid UTF-8 input would be).
     */
    static String escapedRandomly(String s, Random r) {
        var b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            boolean mustEscape = cp < 0x20 || cp == '"' || cp == '\\';
            if (mustEscape || r.nextInt(4) == 0) {
                if (cp == '/' && r.nextBoolean()) {
                    b.append("\\/");
                } else {
                    String format = r.nextBoolean() ? "\\u%04x" : "\\u%04X";
                    for (char c : Character.toChars(cp)) {
                        b.append(String.format(Locale.ROOT, format, (int) c));
                    }
                }
            } else {
                b.appendCodePoint(cp);
            }
        }
        return b.append('"').toString();
    }

    /** Some JSON value for an unknown key, to be ignored by the reader. */
    static String junkValue(Random r, int depth) {
        return switch (depth > 3 ? r.nextInt(5) : r.nextInt(7)) {
            case 0 -> "null";
            case 1 -> r.nextBoolean() ? "true" : "false";
            case 2 -> Long.toString(r.nextLong());
            case 3 -> "1.5e300";
            case 4 -> quote("junk<&>\u2028");
            case 5 -> "[" + junkValue(r, depth + 1) + "," + ws(r) + junkValue(r, depth + 1) + "]";
            default -> "{\"a\":" + junkValue(r, depth + 1) + ",\"instanceCount\":3}";
        };
    }

    /** The devices as a JSON document Go reads back to the same devices, in the given order. */
    static String noisy(List<DeviceInfo> devices, Random r) {
        var b = new StringBuilder(ws(r)).append('[');
        for (int n = 0; n < devices.size(); n++) {
            DeviceInfo d = devices.get(n);
            var members = new ArrayList<String>();
            // zero values may be written explicitly, or as null, which leaves Go's zero value in place
            addString(members, "id", d.id(), r);
            addNumber(members, "index", d.index(), r);
            addNumber(members, "count", d.count(), r);
            addNumber(members, "devmem", d.devmem(), r);
            addNumber(members, "devcore", d.devcore(), r);
            addString(members, "type", d.type(), r);
            addNumber(members, "numa", d.numa(), r);
            addString(members, "mode", d.mode(), r);
            addProfiles(members, d.migProfiles(), r);
            if (d.health() || r.nextBoolean()) {
                members.add(quote(randomCase("health", r)) + ":" + d.health());
            } else if (r.nextInt(4) == 0) {
                members.add(quote(randomCase("health", r)) + ":null");
            }
            int unknown = r.nextInt(3);
            for (int u = 0; u < unknown; u++) {
                String key = switch (r.nextInt(4)) {
                    case 0 -> "migtemplate";
                    case 1 -> "devicevendor";
                    case 2 -> "customInfo";
                    default -> "x" + r.nextInt(100);
                };
                members.add(quote(key) + ":" + junkValue(r, 0));
            }
            java.util.Collections.shuffle(members, r);
            if (n > 0) b.append(',').append(ws(r));
            b.append('{').append(ws(r));
            for (int m = 0; m < members.size(); m++) {
                if (m > 0) b.append(ws(r)).append(',').append(ws(r));
                b.append(members.get(m));
            }
            b.append(ws(r)).append('}');
        }
        return b.append(ws(r)).append(']').append(ws(r)).toString();
    }

    /** A MIG profile list: an empty one omitted, null or []; else each profile noisy, a zero one maybe null. */
    private static void addProfiles(List<String> members, List<MigProfile> profiles, Random r) {
        String key = quote(randomCase("migProfiles", r)) + ":";
        if (profiles.isEmpty()) {
            switch (r.nextInt(3)) {
                case 0 -> members.add(key + "null");
                case 1 -> members.add(key + "[" + ws(r) + "]");
                default -> {}
            }
            return;
        }
        var out = new ArrayList<String>();
        for (MigProfile p : profiles) {
            if (p.equals(new MigProfile("", 0, 0, 0, null)) && r.nextBoolean()) {
                out.add("null"); // Go leaves a fresh element at its zero value
                continue;
            }
            var fields = new ArrayList<String>();
            addString(fields, "name", p.name(), r);
            addNumber(fields, "memoryMB", p.memoryMB(), r);
            addNumber(fields, "core", p.core(), r);
            addUnsigned(fields, "sliceCount", p.sliceCount(), r);
            if (p.placements() != null) {
                var placements = new ArrayList<String>();
                for (MigPlacement pl : p.placements()) {
                    var pf = new ArrayList<String>();
                    addUnsigned(pf, "start", pl.start(), r);
                    addUnsigned(pf, "size", pl.size(), r);
                    java.util.Collections.shuffle(pf, r);
                    placements.add("{" + String.join("," + ws(r), pf) + "}");
                }
                fields.add(quote(randomCase("placements", r)) + ":[" + String.join("," + ws(r), placements) + "]");
            } else if (r.nextBoolean()) {
                fields.add(quote(randomCase("placements", r)) + ":null");
            }
            if (r.nextBoolean()) {
                fields.add(quote(r.nextBoolean() ? "instanceCount" : "multiprocessorCount") + ":" + r.nextInt(99));
            }
            java.util.Collections.shuffle(fields, r);
            out.add("{" + ws(r) + String.join(ws(r) + "," + ws(r), fields) + ws(r) + "}");
        }
        members.add(key + "[" + ws(r) + String.join("," + ws(r), out) + ws(r) + "]");
    }

    /** A Go uint32: zero may be omitted, written or null, never -0 (Go refuses it for unsigned fields). */
    private static void addUnsigned(List<String> members, String key, long value, Random r) {
        if (value == 0) {
            switch (r.nextInt(3)) {
                case 0 -> members.add(quote(randomCase(key, r)) + ":0");
                case 1 -> members.add(quote(randomCase(key, r)) + ":null");
                default -> {}
            }
        } else {
            members.add(quote(randomCase(key, r)) + ":" + value);
        }
    }

    private static void addString(List<String> members, String key, String value, Random r) {
        if (value.isEmpty()) {
            switch (r.nextInt(3)) {
                case 0 -> members.add(quote(randomCase(key, r)) + ":\"\"");
                case 1 -> members.add(quote(randomCase(key, r)) + ":null");
                default -> {}
            }
        } else {
            members.add(quote(randomCase(key, r)) + ":" + (r.nextBoolean() ? quote(value) : escapedRandomly(value, r)));
        }
    }

    private static void addNumber(List<String> members, String key, int value, Random r) {
        if (value == 0) {
            switch (r.nextInt(4)) {
                case 0 -> members.add(quote(randomCase(key, r)) + ":0");
                // Go reads -0 into int fields but not into the uint index
                case 1 -> members.add(quote(randomCase(key, r)) + (key.equals("index") ? ":0" : ":-0"));
                case 2 -> members.add(quote(randomCase(key, r)) + ":null");
                default -> {}
            }
        } else {
            members.add(quote(randomCase(key, r)) + ":" + value);
        }
    }
}
