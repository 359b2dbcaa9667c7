package io.hami.protocol.config;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The device configuration, compatible with the keys of upstream's {@code device-config.yaml}
 * (docs/upstream.md#device-config): one section per vendor, each owned by the vendor's module as a
 * {@link ConfigSection}. Read it with {@link DeviceConfigLoader}.
 *
 * @param sections the values of the sections that differ from their defaults, by section name; a section not here
 *                 has its defaults, so two configs with the same effective values are equal
 */
public record DeviceConfig(Map<String, Object> sections) {

    /** Every section at its defaults. */
    public static final DeviceConfig DEFAULTS = new DeviceConfig(Map.of());

    public DeviceConfig {
        sections = Map.copyOf(sections);
    }

    /** The value of {@code section}: what the file said, or its defaults. */
    public <T> T section(ConfigSection<T> section) {
        Object v = sections.get(section.name());
        if (v == null) {
            return section.defaults();
        }
        @SuppressWarnings("unchecked") // stored only by with(section, T) under the section's own name
        T value = (T) v;
        return value;
    }

    /** This config with {@code section} set to {@code value}. */
    public <T> DeviceConfig with(ConfigSection<T> section, T value) {
        Objects.requireNonNull(value);
        var next = new HashMap<>(sections);
        if (value.equals(section.defaults())) {
            next.remove(section.name());
        } else {
            next.put(section.name(), value);
        }
        return new DeviceConfig(next);
    }
}
