package io.hami.backend.nvidia;

import io.hami.protocol.config.ConfigReader;
import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfigException;
import java.util.List;
import java.util.Set;

/**
 * Section {@code nvidia} of the device config (upstream's keys, docs/upstream.md#device-config), with the
 * defaults of design D1 (docs/design.md#d1). Scheduler keys first, then the device plugin's node defaults.
 */
public record NvidiaConfig(
        String resourceCountName,
        String resourceMemoryName,
        String resourceMemoryPercentageName,
        String resourceCoreName,
        String resourcePriorityName,
        boolean overwriteEnv,
        int defaultMemory,
        int defaultCores,
        int defaultGPUNum,
        int memoryFactor,
        boolean disableCoreLimit,
        String gpuCorePolicy,
        String runtimeClassName,
        int deviceSplitCount,
        double deviceMemoryScaling,
        double deviceCoreScaling,
        long preConfiguredDeviceMemory,
        String libCudaLogLevel,
        boolean enableNumaTopology) {

    public static final NvidiaConfig DEFAULTS = new NvidiaConfig(
            "nvidia.com/gpu",
            "nvidia.com/gpumem",
            "nvidia.com/gpumem-percentage",
            "nvidia.com/gpucores",
            "nvidia.com/priority",
            false,
            0,
            0,
            1,
            1,
            false,
            "default",
            "",
            10,
            1.0,
            1.0,
            0,
            "",
            false);

    /** The section as the loader finds it. */
    public static final ConfigSection<NvidiaConfig> SECTION = new ConfigSection<>() {
        /** Keys upstream accepts that this project reads but does not act on (MIG). */
        private static final Set<String> UNSUPPORTED = Set.of("migProfileAllowlist", "knownMigGeometries");

        @Override
        public String name() {
            return "nvidia";
        }

        @Override
        public NvidiaConfig defaults() {
            return DEFAULTS;
        }

        @Override
        public NvidiaConfig read(ConfigReader nv) throws DeviceConfigException {
            var n = DEFAULTS;
            var read = new NvidiaConfig(
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
                    // upstream's libCudaLogLevel is a string that files often write as a number
                    nv.scalarText("libCudaLogLevel", n.libCudaLogLevel()),
                    nv.bool("enableNumaTopology", n.enableNumaTopology()));
            nv.ignore(UNSUPPORTED, "(MIG) is not supported by hami-java");
            return read;
        }
    };
}
