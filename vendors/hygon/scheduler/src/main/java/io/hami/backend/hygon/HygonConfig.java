package io.hami.backend.hygon;

import io.hami.protocol.config.ConfigReader;
import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfigException;

/** Section {@code hygon} of the device config, with the HCU names of design D1 (docs/design.md#d1). */
public record HygonConfig(
        String resourceCountName, String resourceMemoryName, String resourceCoreName, int memoryFactor) {

    public static final HygonConfig DEFAULTS =
            new HygonConfig("hygon.com/hcunum", "hygon.com/hcumem", "hygon.com/hcucores", 1);

    /** The section as the loader finds it. */
    public static final ConfigSection<HygonConfig> SECTION = new ConfigSection<>() {
        @Override
        public String name() {
            return "hygon";
        }

        @Override
        public HygonConfig defaults() {
            return DEFAULTS;
        }

        @Override
        public HygonConfig read(ConfigReader hy) throws DeviceConfigException {
            return new HygonConfig(
                    hy.string("resourceCountName", DEFAULTS.resourceCountName()),
                    hy.string("resourceMemoryName", DEFAULTS.resourceMemoryName()),
                    hy.string("resourceCoreName", DEFAULTS.resourceCoreName()),
                    hy.int32("memoryFactor", DEFAULTS.memoryFactor(), 1));
        }
    };
}
