package io.hami.protocol.config;

/**
 * The device configuration, compatible with the keys of upstream's {@code device-config.yaml}
 * (reference/upstream-scheduler.md §7.2), with the defaults of DECISIONS D1. Read it with
 * {@link DeviceConfigLoader}.
 */
public record DeviceConfig(Nvidia nvidia, Cambricon cambricon, Mthreads mthreads, Hygon hygon) {

    public static final DeviceConfig DEFAULTS =
            new DeviceConfig(Nvidia.DEFAULTS, Cambricon.DEFAULTS, Mthreads.DEFAULTS, Hygon.DEFAULTS);

    /** Section {@code nvidia}. Scheduler keys first, then the device plugin's node defaults. */
    public record Nvidia(String resourceCountName, String resourceMemoryName, String resourceMemoryPercentageName,
                         String resourceCoreName, String resourcePriorityName, boolean overwriteEnv,
                         int defaultMemory, int defaultCores, int defaultGPUNum, int memoryFactor,
                         boolean disableCoreLimit, String gpuCorePolicy, String runtimeClassName,
                         int deviceSplitCount, double deviceMemoryScaling, double deviceCoreScaling,
                         long preConfiguredDeviceMemory, String libCudaLogLevel, boolean enableNumaTopology) {
        public static final Nvidia DEFAULTS = new Nvidia("nvidia.com/gpu", "nvidia.com/gpumem",
                "nvidia.com/gpumem-percentage", "nvidia.com/gpucores", "nvidia.com/priority", false,
                0, 0, 1, 1, false, "default", "", 10, 1.0, 1.0, 0, "", false);
    }

    /** Section {@code cambricon}. Memory is counted in units of 256 MiB. */
    public record Cambricon(String resourceCountName, String resourceMemoryName, String resourceCoreName) {
        public static final Cambricon DEFAULTS = new Cambricon("cambricon.com/vmlu",
                "cambricon.com/mlu.smlu.vmemory", "cambricon.com/mlu.smlu.vcore");
    }

    /** Section {@code mthreads}. Memory is counted in units of 512 MiB; a GPU has 16 cores. */
    public record Mthreads(String resourceCountName, String resourceMemoryName, String resourceCoreName) {
        public static final Mthreads DEFAULTS = new Mthreads("mthreads.com/vgpu", "mthreads.com/sgpu-memory",
                "mthreads.com/sgpu-core");
    }

    /** Section {@code hygon}, with the HCU names of DECISIONS D1. */
    public record Hygon(String resourceCountName, String resourceMemoryName, String resourceCoreName,
                        int memoryFactor) {
        public static final Hygon DEFAULTS = new Hygon("hygon.com/hcunum", "hygon.com/hcumem", "hygon.com/hcucores", 1);
    }
}
