package io.hami.backend.nvidia.mig;

import io.hami.protocol.config.DeviceConfigException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The {@code nvidia.migProfileAllowlist} of the device config (docs/mig-design.md §1.1): which MIG profiles the plugin
 * may publish on the GPUs whose model name contains one of an entry's models. Read from the config tree and checked
 * as upstream's {@code ValidateMigProfileAllowlist} checks it, but an invalid list is a {@link DeviceConfigException}
 * naming the entry, where upstream stops the scheduler.
 *
 * @param entries the entries in file order (the plugin uses the first whose model matches)
 */
public record MigProfileAllowlist(List<Entry> entries) {
    public static final MigProfileAllowlist NONE = new MigProfileAllowlist(List.of());

    /** One entry: the model substrings and the profile names allowed on them. */
    public record Entry(List<String> models, List<String> profiles) {
        public Entry {
            models = List.copyOf(models);
            profiles = List.copyOf(profiles);
        }
    }

    public MigProfileAllowlist {
        entries = List.copyOf(entries);
    }

    /** The allowlist in use, and the warning a person should see about how it was found. */
    public record Resolved(MigProfileAllowlist allowlist, Optional<String> warning) {}

    /**
     * The allowlist from the section's {@code migProfileAllowlist} and legacy {@code knownMigGeometries} (either may be
     * null when absent). The allowlist wins; without it the geometries give one (design choice 2 of
     * docs/mig-design.md §5.2: per entry, the union of its geometries' profile names, upstream's migration rule), with
     * a warning, since upstream v2.10 ignores {@code knownMigGeometries}.
     *
     * @param where the section's path for messages, for example {@code device config f.yaml: key nvidia.}
     */
    public static Resolved resolve(JsonNode allowlist, JsonNode geometries, String where) throws DeviceConfigException {
        boolean hasAllowlist = allowlist != null && !allowlist.isNull();
        boolean hasGeometries = geometries != null && !geometries.isNull();
        if (hasAllowlist) {
            var read = read(allowlist, where + "migProfileAllowlist");
            return new Resolved(
                    read,
                    hasGeometries
                            ? Optional.of(where + "knownMigGeometries is ignored: migProfileAllowlist is set")
                            : Optional.empty());
        }
        if (hasGeometries) {
            var derived = fromGeometries(geometries, where + "knownMigGeometries");
            return new Resolved(
                    derived,
                    Optional.of(where + "knownMigGeometries (upstream v2.9) is read as migProfileAllowlist "
                            + derived.entries() + "; upstream v2.10 ignores it, write migProfileAllowlist instead"));
        }
        return new Resolved(NONE, Optional.empty());
    }

    /** A {@code migProfileAllowlist} value: a list of {@code {models: [..], profiles: [..]}}, validated. */
    public static MigProfileAllowlist read(JsonNode list, String where) throws DeviceConfigException {
        var entries = new ArrayList<Entry>();
        JsonNode items = list(list, where);
        for (int i = 0; i < items.size(); i++) {
            String at = where + "[" + i + "]";
            JsonNode e = mapping(items.get(i), at, Set.of("models", "profiles"));
            entries.add(
                    new Entry(strings(e.get("models"), at + ".models"), strings(e.get("profiles"), at + ".profiles")));
        }
        var allowlist = new MigProfileAllowlist(entries);
        allowlist.validate(where);
        return allowlist;
    }

    /**
     * Upstream's {@code ValidateMigProfileAllowlist}: every entry names at least one model and one profile, and every
     * profile has a {@code .} whose left part is at least 2 characters and ends in {@code g} ({@code 1g.5gb}).
     */
    public void validate(String where) throws DeviceConfigException {
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            String at = where + "[" + i + "]";
            if (e.models().isEmpty() || e.profiles().isEmpty()) {
                throw new DeviceConfigException(at + ": a MIG profile allowlist entry needs models and profiles");
            }
            for (int p = 0; p < e.profiles().size(); p++) {
                if (!validProfileName(e.profiles().get(p))) {
                    throw new DeviceConfigException(at + ".profiles[" + p + "]: invalid MIG profile \""
                            + e.profiles().get(p) + "\" (want <n>g.<memory>, for example 1g.5gb)");
                }
            }
        }
    }

    static boolean validProfileName(String name) {
        int dot = name.indexOf('.');
        if (dot < 0) {
            return false;
        }
        String slices = name.substring(0, dot);
        // upstream counts bytes; a left part ending in 'g' has at least 2 bytes exactly when it has 2 characters
        return slices.length() >= 2 && slices.endsWith("g");
    }

    /**
     * A legacy {@code knownMigGeometries} value, {@code [{models: [..], allowedGeometries: [[{name, memory, count,
     * core?}, ..], ..]}]}, as an allowlist: per entry, the profile names of all its geometries, first seen first.
     */
    static MigProfileAllowlist fromGeometries(JsonNode list, String where) throws DeviceConfigException {
        var entries = new ArrayList<Entry>();
        JsonNode items = list(list, where);
        for (int i = 0; i < items.size(); i++) {
            String at = where + "[" + i + "]";
            JsonNode e = mapping(items.get(i), at, Set.of("models", "allowedGeometries"));
            var names = new LinkedHashSet<String>();
            JsonNode geometries = e.get("allowedGeometries");
            if (geometries != null && !geometries.isNull()) {
                list(geometries, at + ".allowedGeometries");
                for (int g = 0; g < geometries.size(); g++) {
                    String gAt = at + ".allowedGeometries[" + g + "]";
                    JsonNode geometry = list(geometries.get(g), gAt);
                    for (int t = 0; t < geometry.size(); t++) {
                        String tAt = gAt + "[" + t + "]";
                        JsonNode template = mapping(geometry.get(t), tAt, Set.of("name", "memory", "count", "core"));
                        JsonNode name = template.get("name");
                        if (name == null || !name.isString()) {
                            throw new DeviceConfigException(tAt + ".name: want a string");
                        }
                        names.add(name.stringValue());
                    }
                }
            }
            entries.add(new Entry(strings(e.get("models"), at + ".models"), List.copyOf(names)));
        }
        var allowlist = new MigProfileAllowlist(entries);
        allowlist.validate(where);
        return allowlist;
    }

    private static JsonNode list(JsonNode v, String at) throws DeviceConfigException {
        if (v == null || !v.isArray()) {
            throw new DeviceConfigException(at + ": want a list, got " + shown(v));
        }
        return v;
    }

    private static JsonNode mapping(JsonNode v, String at, Set<String> keys) throws DeviceConfigException {
        if (v == null || !v.isObject()) {
            throw new DeviceConfigException(at + ": want a mapping, got " + shown(v));
        }
        for (String key : v.propertyNames()) {
            if (!keys.contains(key)) {
                throw new DeviceConfigException(at + ": unknown key " + key + " (want one of "
                        + keys.stream().sorted().toList() + ")");
            }
        }
        return v;
    }

    /** A list of strings; absent or null is empty (the validation then names the entry). */
    private static List<String> strings(JsonNode v, String at) throws DeviceConfigException {
        if (v == null || v.isNull()) {
            return List.of();
        }
        var out = new ArrayList<String>();
        list(v, at);
        for (int i = 0; i < v.size(); i++) {
            JsonNode s = v.get(i);
            if (!s.isString()) {
                throw new DeviceConfigException(at + "[" + i + "]: want a string, got " + shown(s));
            }
            out.add(s.stringValue());
        }
        return out;
    }

    private static String shown(JsonNode v) {
        if (v == null || v.isNull()) {
            return "nothing";
        }
        return v.isContainer() ? (v.isArray() ? "a list" : "a mapping") : v.toString();
    }
}
