package io.hami.protocol.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a {@code device-config.yaml} with upstream's keys (reference/upstream-scheduler.md §7.2). Missing
 * keys take the defaults of {@link DeviceConfig#DEFAULTS}; an unknown key or a value of the wrong type is
 * an error naming the key. Sections of vendors this project does not support are skipped with a warning,
 * so an upstream file can be used unchanged.
 */
public final class DeviceConfigLoader {
    /** Upstream vendor sections that are valid in the file but not handled here. */
    private static final Set<String> OTHER_VENDORS =
            Set.of("metax", "iluvatars", "enflame", "kunlun", "awsneuron", "amd", "vastai", "biren", "vnpus");
    /** NVIDIA keys that upstream accepts and this project reads but does not act on (MIG). */
    private static final Set<String> NVIDIA_UNSUPPORTED = Set.of("migProfileAllowlist", "knownMigGeometries");

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private DeviceConfigLoader() {
    }

    /** The parsed configuration and the warnings a person should see. */
    public record Loaded(DeviceConfig config, List<String> warnings) {
    }

    public static Loaded load(Path file) throws DeviceConfigException {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new DeviceConfigException("cannot read device config " + file + ": " + e);
        }
        return parse(text, file.toString());
    }

    public static Loaded parse(String yaml, String source) throws DeviceConfigException {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JacksonException e) {
            throw new DeviceConfigException("device config " + source + " is not valid YAML: " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new DeviceConfigException("device config " + source + " is empty: all configurations are empty");
        }
        if (!root.isObject()) {
            throw new DeviceConfigException("device config " + source + " must be a mapping of vendor sections");
        }
        var warnings = new ArrayList<String>();
        var top = new Section(source, "", root);
        var d = DeviceConfig.DEFAULTS;
        var nv = top.section("nvidia");
        var cam = top.section("cambricon");
        var mt = top.section("mthreads");
        var hy = top.section("hygon");
        for (String other : top.remainingIn(OTHER_VENDORS)) {
            warnings.add("device config " + source + ": section " + other + " is for a vendor hami-java does not support; ignored");
        }
        top.rejectUnknown();
        if (nv.isEmpty() && cam.isEmpty() && mt.isEmpty() && hy.isEmpty()) {
            throw new DeviceConfigException("device config " + source
                    + ": all configurations are empty (want at least one of nvidia, cambricon, mthreads, hygon)");
        }

        var n = d.nvidia();
        var nvidia = new DeviceConfig.Nvidia(
                nv.string("resourceCountName", n.resourceCountName()),
                nv.string("resourceMemoryName", n.resourceMemoryName()),
                nv.string("resourceMemoryPercentageName", n.resourceMemoryPercentageName()),
                nv.string("resourceCoreName", n.resourceCoreName()),
                nv.string("resourcePriorityName", n.resourcePriorityName()),
                nv.bool("overwriteEnv", n.overwriteEnv()),
                nv.int32("defaultMemory", n.defaultMemory(), 0),
                nv.int32("defaultCores", n.defaultCores(), 0),
                nv.int32("defaultGPUNum", n.defaultGPUNum(), 0),
                nv.int32("memoryFactor", n.memoryFactor(), 1),
                nv.bool("disableCoreLimit", n.disableCoreLimit()),
                nv.oneOf("gpuCorePolicy", n.gpuCorePolicy(), List.of("default", "force", "disable")),
                nv.string("runtimeClassName", n.runtimeClassName()),
                nv.int32("deviceSplitCount", n.deviceSplitCount(), 1),
                nv.positive("deviceMemoryScaling", n.deviceMemoryScaling()),
                nv.positive("deviceCoreScaling", n.deviceCoreScaling()),
                nv.int64("preConfiguredDeviceMemory", n.preConfiguredDeviceMemory()),
                nv.scalarText("libCudaLogLevel", n.libCudaLogLevel()),
                nv.bool("enableNumaTopology", n.enableNumaTopology()));
        for (String key : nv.remainingIn(NVIDIA_UNSUPPORTED)) {
            warnings.add("device config " + source + ": nvidia." + key + " (MIG) is not supported by hami-java; ignored");
        }
        nv.rejectUnknown();

        var c = d.cambricon();
        var cambricon = new DeviceConfig.Cambricon(
                cam.string("resourceCountName", c.resourceCountName()),
                cam.string("resourceMemoryName", c.resourceMemoryName()),
                cam.string("resourceCoreName", c.resourceCoreName()));
        cam.rejectUnknown();

        var m = d.mthreads();
        var mthreads = new DeviceConfig.Mthreads(
                mt.string("resourceCountName", m.resourceCountName()),
                mt.string("resourceMemoryName", m.resourceMemoryName()),
                mt.string("resourceCoreName", m.resourceCoreName()));
        mt.rejectUnknown();

        var h = d.hygon();
        var hygon = new DeviceConfig.Hygon(
                hy.string("resourceCountName", h.resourceCountName()),
                hy.string("resourceMemoryName", h.resourceMemoryName()),
                hy.string("resourceCoreName", h.resourceCoreName()),
                hy.int32("memoryFactor", h.memoryFactor(), 1));
        hy.rejectUnknown();

        return new Loaded(new DeviceConfig(nvidia, cambricon, mthreads, hygon), List.copyOf(warnings));
    }

    /** One mapping of the file; remembers which keys were read so the rest can be reported. */
    private static final class Section {
        private final String source;
        private final String path;
        private final JsonNode node;
        private final Set<String> unread = new LinkedHashSet<>();

        Section(String source, String path, JsonNode node) {
            this.source = source;
            this.path = path;
            this.node = node;
            node.propertyNames().forEach(unread::add);
        }

        boolean isEmpty() {
            return node.isEmpty();
        }

        Section section(String key) throws DeviceConfigException {
            JsonNode v = take(key);
            if (v == null || v.isNull()) {
                return new Section(source, path + key + ".", tools.jackson.databind.node.JsonNodeFactory.instance.objectNode());
            }
            if (!v.isObject()) {
                throw wrongType(key, v, "a mapping");
            }
            return new Section(source, path + key + ".", v);
        }

        String string(String key, String fallback) throws DeviceConfigException {
            JsonNode v = take(key);
            if (v == null || v.isNull()) {
                return fallback;
            }
            if (!v.isString()) {
                throw wrongType(key, v, "a string");
            }
            return v.stringValue().trim();
        }

        /** A scalar read as text: upstream's libCudaLogLevel is a string that files often write as a number. */
        String scalarText(String key, String fallback) throws DeviceConfigException {
            JsonNode v = take(key);
            if (v == null || v.isNull()) {
                return fallback;
            }
            if (!v.isValueNode()) {
                throw wrongType(key, v, "a string or number");
            }
            return v.asString();
        }

        String oneOf(String key, String fallback, List<String> allowed) throws DeviceConfigException {
            String v = string(key, fallback);
            if (!allowed.contains(v)) {
                throw new DeviceConfigException(where(key) + ": want one of " + allowed + ", got \"" + v + "\"");
            }
            return v;
        }

        boolean bool(String key, boolean fallback) throws DeviceConfigException {
            JsonNode v = take(key);
            if (v == null || v.isNull()) {
                return fallback;
            }
            if (!v.isBoolean()) {
                throw wrongType(key, v, "true or false");
            }
            return v.booleanValue();
        }

        int int32(String key, int fallback, int min) throws DeviceConfigException {
            long v = int64(key, fallback);
            if (v < min || v > Integer.MAX_VALUE) {
                throw new DeviceConfigException(where(key) + ": want an integer from " + min + " to " + Integer.MAX_VALUE + ", got " + v);
            }
            return (int) v;
        }

        long int64(String key, long fallback) throws DeviceConfigException {
            JsonNode v = take(key);
            if (v == null || v.isNull()) {
                return fallback;
            }
            if (!v.isIntegralNumber() || !v.canConvertToLong()) {
                throw wrongType(key, v, "an integer");
            }
            return v.longValue();
        }

        double positive(String key, double fallback) throws DeviceConfigException {
            JsonNode v = take(key);
            if (v == null || v.isNull()) {
                return fallback;
            }
            if (!v.isNumber() || !(v.doubleValue() > 0) || Double.isInfinite(v.doubleValue())) {
                throw wrongType(key, v, "a positive number");
            }
            return v.doubleValue();
        }

        /** Keys of {@code allowed} present in this section, marked as read. */
        List<String> remainingIn(Set<String> allowed) {
            var found = unread.stream().filter(allowed::contains).toList();
            found.forEach(unread::remove);
            return found;
        }

        void rejectUnknown() throws DeviceConfigException {
            if (!unread.isEmpty()) {
                String key = unread.iterator().next();
                throw new DeviceConfigException("device config " + source + ": unknown key " + path + key
                        + (path.isEmpty() ? " (want nvidia, cambricon, mthreads or hygon)" : ""));
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
}
