package io.hami.monitor.metrics;

import io.hami.nativebind.nvml.NvmlUtilization;
import java.util.Optional;

/**
 * One GPU of the node as NVML reports it.
 *
 * @param type upstream's {@code device_type} label: {@code NVIDIA-} and the model name
 * @param utilization empty where the GPU does not report it (NVML's {@code NOT_SUPPORTED})
 */
public record HostGpu(
        int index, String uuid, String type, long memoryUsedBytes, Optional<NvmlUtilization> utilization) {}
