package io.hami.backend.mthreads;

import io.hami.protocol.config.ConfigReader;
import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfigException;

/** Section {@code mthreads} of the device config. Memory is counted in units of 512 MiB; a GPU has 16 cores. */
public record MthreadsConfig(String resourceCountName, String resourceMemoryName, String resourceCoreName) {

    public static final MthreadsConfig DEFAULTS =
            new MthreadsConfig("mthreads.com/vgpu", "mthreads.com/sgpu-memory", "mthreads.com/sgpu-core");

    /** The section as the loader finds it. */
    public static final ConfigSection<MthreadsConfig> SECTION = new ConfigSection<>() {
        @Override
        public String name() {
            return "mthreads";
        }

        @Override
        public MthreadsConfig defaults() {
            return DEFAULTS;
        }

        @Override
        public MthreadsConfig read(ConfigReader mt) throws DeviceConfigException {
            return new MthreadsConfig(
                    mt.string("resourceCountName", DEFAULTS.resourceCountName()),
                    mt.string("resourceMemoryName", DEFAULTS.resourceMemoryName()),
                    mt.string("resourceCoreName", DEFAULTS.resourceCoreName()));
        }
    };
}
