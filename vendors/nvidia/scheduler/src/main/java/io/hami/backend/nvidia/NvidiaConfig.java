package io.hami.backend.nvidia;

import io.hami.protocol.config.ConfigReader;
import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfigException;
import java.util.List;
import java.util.Set;

/**
 * Section {@code nvidia} of the device config (upstream's keys, docs/upstream.md#device-config), with the
 * defaults of design D1 (docs/design.md#d1). The section is flat in YAML; here its keys are grouped by meaning,
 * in upstream's order, and every component keeps its YAML key's name.
 *
 * @param resources the extended resource names the scheduler reads
 * @param requests  what a container asks for when its limits do not say
 * @param isolation how HAMi-core limits a container
 * @param node      the device plugin's node defaults
 */
public record NvidiaConfig(Resources resources, Requests requests, Isolation isolation, Node node) {

    /** The extended resource names: count, memory (MiB), memory percentage, cores, task priority. */
    public record Resources(
            String resourceCountName,
            String resourceMemoryName,
            String resourceMemoryPercentageName,
            String resourceCoreName,
            String resourcePriorityName) {}

    /** Container defaults: env on containers without GPUs, memory/cores/count when unset, the memory unit factor. */
    public record Requests(
            boolean overwriteEnv, int defaultMemory, int defaultCores, int defaultGPUNum, int memoryFactor) {}

    /** HAMi-core's limits: core limit off, the core policy, the runtime class of GPU pods. */
    public record Isolation(boolean disableCoreLimit, String gpuCorePolicy, String runtimeClassName) {}

    /** The device plugin's node defaults: sharing, preconfigured memory, HAMi-core's log level, NUMA topology. */
    public record Node(
            int deviceSplitCount,
            double deviceMemoryScaling,
            double deviceCoreScaling,
            long preConfiguredDeviceMemory,
            String libCudaLogLevel,
            boolean enableNumaTopology) {}

    public static final NvidiaConfig DEFAULTS = new NvidiaConfig(
            new Resources(
                    "nvidia.com/gpu",
                    "nvidia.com/gpumem",
                    "nvidia.com/gpumem-percentage",
                    "nvidia.com/gpucores",
                    "nvidia.com/priority"),
            new Requests(false, 0, 0, 1, 1),
            new Isolation(false, "default", ""),
            new Node(10, 1.0, 1.0, 0, "", false));

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
            var r = DEFAULTS.resources();
            var q = DEFAULTS.requests();
            var i = DEFAULTS.isolation();
            var n = DEFAULTS.node();
            var read = new NvidiaConfig(
                    new Resources(
                            nv.string("resourceCountName", r.resourceCountName()),
                            nv.string("resourceMemoryName", r.resourceMemoryName()),
                            nv.string("resourceMemoryPercentageName", r.resourceMemoryPercentageName()),
                            nv.string("resourceCoreName", r.resourceCoreName()),
                            nv.string("resourcePriorityName", r.resourcePriorityName())),
                    new Requests(
                            nv.bool("overwriteEnv", q.overwriteEnv()),
                            nv.int32("defaultMemory", q.defaultMemory(), 0),
                            nv.int32("defaultCores", q.defaultCores(), 0),
                            nv.int32("defaultGPUNum", q.defaultGPUNum(), 0),
                            nv.int32("memoryFactor", q.memoryFactor(), 1)),
                    new Isolation(
                            nv.bool("disableCoreLimit", i.disableCoreLimit()),
                            nv.oneOf("gpuCorePolicy", i.gpuCorePolicy(), List.of("default", "force", "disable")),
                            nv.string("runtimeClassName", i.runtimeClassName())),
                    new Node(
                            nv.int32("deviceSplitCount", n.deviceSplitCount(), 1),
                            nv.positive("deviceMemoryScaling", n.deviceMemoryScaling()),
                            nv.positive("deviceCoreScaling", n.deviceCoreScaling()),
                            nv.int64("preConfiguredDeviceMemory", n.preConfiguredDeviceMemory()),
                            // upstream's libCudaLogLevel is a string that files often write as a number
                            nv.scalarText("libCudaLogLevel", n.libCudaLogLevel()),
                            nv.bool("enableNumaTopology", n.enableNumaTopology())));
            nv.ignore(UNSUPPORTED, "(MIG) is not supported by hami-java");
            return read;
        }
    };
}
