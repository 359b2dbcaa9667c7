package io.hami.backend.cambricon;

import io.hami.protocol.config.ConfigReader;
import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfigException;

/** Section {@code cambricon} of the device config. Memory is counted in units of 256 MiB. */
public record CambriconConfig(String resourceCountName, String resourceMemoryName, String resourceCoreName) {

    public static final CambriconConfig DEFAULTS =
            new CambriconConfig("cambricon.com/vmlu", "cambricon.com/mlu.smlu.vmemory", "cambricon.com/mlu.smlu.vcore");

    /** The section as the loader finds it. */
    public static final ConfigSection<CambriconConfig> SECTION = new ConfigSection<>() {
        @Override
        public String name() {
            return "cambricon";
        }

        @Override
        public CambriconConfig defaults() {
            return DEFAULTS;
        }

        @Override
        public CambriconConfig read(ConfigReader cam) throws DeviceConfigException {
            return new CambriconConfig(
                    cam.string("resourceCountName", DEFAULTS.resourceCountName()),
                    cam.string("resourceMemoryName", DEFAULTS.resourceMemoryName()),
                    cam.string("resourceCoreName", DEFAULTS.resourceCoreName()));
        }
    };
}
