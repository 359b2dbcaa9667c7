package io.hami.protocol.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a {@code device-config.yaml} with upstream's file shape: a mapping of vendor sections, each read by the
 * {@link ConfigSection} its vendor module contributes. Missing keys take the section's defaults; an unknown key or
 * a value of the wrong type is an error naming the key's path. Sections of upstream vendors with no module here
 * are skipped with a warning, so an upstream file can be used unchanged.
 */
public final class DeviceConfigLoader {
    /** Vendor sections of upstream's file, valid there; skipped when no module on the class path reads them. */
    private static final Set<String> UPSTREAM_SECTIONS =
            Set.of("metax", "iluvatars", "enflame", "kunlun", "awsneuron", "amd", "vastai", "biren", "vnpus");

    private static final YAMLMapper YAML = YAMLMapper.builder().build();

    private DeviceConfigLoader() {}

    /** The parsed configuration and the warnings a person should see. */
    public record Loaded(DeviceConfig config, List<String> warnings) {}

    public static Loaded load(Path file, Collection<? extends ConfigSection<?>> sections) throws DeviceConfigException {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new DeviceConfigException("cannot read device config " + file + ": " + e);
        }
        return parse(text, file.toString(), sections);
    }

    public static Loaded parse(String yaml, String source, Collection<? extends ConfigSection<?>> sections)
            throws DeviceConfigException {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (JacksonException e) {
            throw new DeviceConfigException(
                    "device config " + source + " is not valid YAML: " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode() || root.isNull()) {
            throw new DeviceConfigException("device config " + source + " is empty: all configurations are empty");
        }
        if (!root.isObject()) {
            throw new DeviceConfigException("device config " + source + " must be a mapping of vendor sections");
        }
        List<ConfigSection<?>> ordered = sections.stream()
                .<ConfigSection<?>>map(s -> s)
                .sorted(Comparator.comparing(ConfigSection::name))
                .toList();
        List<String> names = ordered.stream().map(ConfigSection::name).toList();
        var warnings = new ArrayList<String>();
        var top = new ConfigReader(source, "", root, warnings);
        var readers = new ArrayList<ConfigReader>();
        for (ConfigSection<?> s : ordered) {
            readers.add(top.section(s.name()));
        }
        for (String other : top.remainingIn(UPSTREAM_SECTIONS)) {
            warnings.add("device config " + source + ": section " + other
                    + " is for a vendor hami-java does not support; ignored");
        }
        top.rejectUnknown(wanted(names, " or "));
        if (readers.stream().allMatch(ConfigReader::isEmpty)) {
            throw new DeviceConfigException("device config " + source
                    + ": all configurations are empty (want at least one of " + wanted(names, ", ") + ")");
        }
        var config = DeviceConfig.DEFAULTS;
        for (int i = 0; i < ordered.size(); i++) {
            config = read(config, ordered.get(i), readers.get(i));
        }
        return new Loaded(config, List.copyOf(warnings));
    }

    private static <T> DeviceConfig read(DeviceConfig config, ConfigSection<T> section, ConfigReader reader)
            throws DeviceConfigException {
        T value = section.read(reader);
        reader.rejectUnknown("");
        return config.with(section, value);
    }

    /** "a, b or c" (or "a, b, c"): the section names for a message. */
    private static String wanted(List<String> names, String last) {
        if (names.size() < 2) {
            return names.isEmpty() ? "a vendor section" : names.getFirst();
        }
        return names.subList(0, names.size() - 1).stream().collect(Collectors.joining(", ")) + last + names.getLast();
    }
}
