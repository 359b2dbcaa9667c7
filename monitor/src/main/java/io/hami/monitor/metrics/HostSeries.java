package io.hami.monitor.metrics;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.List;

/** Upstream's per-GPU host gauges (and their legacy names) from what NVML reported. */
public final class HostSeries {
    static final String MEMORY_USED = "hami_host_gpu_memory_used_bytes";
    static final String UTILIZATION = "hami_host_gpu_utilization_ratio";
    static final String MEMORY_CONTROLLER_UTILIZATION = "hami_host_gpu_memory_controller_utilization_ratio";
    static final String LEGACY_MEMORY_USED = "HostGPUMemoryUsage";
    static final String LEGACY_UTILIZATION = "HostCoreUtilization";

    private HostSeries() {}

    public static List<MetricSnapshot> of(List<HostGpu> gpus, String node, boolean legacy) {
        var used = new Series(MEMORY_USED, "GPU device memory usage in bytes");
        var utilization = new Series(UTILIZATION, "GPU core utilization ratio");
        var memoryController = new Series(MEMORY_CONTROLLER_UTILIZATION, "GPU memory controller utilization ratio");
        var legacyUsed = new Series(LEGACY_MEMORY_USED, "GPU device memory usage");
        var legacyUtilization = new Series(LEGACY_UTILIZATION, "GPU core utilization");
        for (HostGpu gpu : gpus) {
            String index = Integer.toString(gpu.index());
            Labels labels = Labels.of(
                    "node",
                    node,
                    "device_index",
                    index,
                    "device_uuid",
                    gpu.uuid(),
                    "device_type",
                    gpu.type(),
                    "zone",
                    ContainerSeries.ZONE);
            Labels legacyLabels = Labels.of(
                    "nodeid",
                    node,
                    "deviceidx",
                    index,
                    "deviceuuid",
                    gpu.uuid(),
                    "devicetype",
                    gpu.type(),
                    "zone",
                    ContainerSeries.ZONE);
            used.add((double) gpu.memoryUsedBytes(), labels);
            legacyUsed.add((double) gpu.memoryUsedBytes(), legacyLabels);
            gpu.utilization().ifPresent(u -> {
                // percent, as upstream serves them despite the names
                utilization.add(u.gpuPercent(), labels);
                memoryController.add(u.memoryPercent(), labels);
                legacyUtilization.add(u.gpuPercent(), legacyLabels);
            });
        }
        var out = new ArrayList<MetricSnapshot>(
                List.of(used.snapshot(), utilization.snapshot(), memoryController.snapshot()));
        if (legacy) {
            out.add(legacyUsed.snapshot());
            out.add(legacyUtilization.snapshot());
        }
        return out;
    }
}
