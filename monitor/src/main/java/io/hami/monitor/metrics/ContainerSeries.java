package io.hami.monitor.metrics;

import io.hami.monitor.pods.PodName;
import io.hami.monitor.scan.ContainerRegion;
import io.hami.nativebind.hamicore.DeviceMemory;
import io.hami.nativebind.hamicore.DeviceShare;
import io.hami.nativebind.hamicore.ProcessUsage;
import io.hami.nativebind.hamicore.SharedRegion;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Upstream's per-container gauges from the regions of one scan: per container of a pod the node knows and per
 * device of its region, memory in use (summed over its processes, also by kind), the memory limit, SM utilisation
 * (summed over its processes) and the seconds since its last kernel (only once it launched one). The legacy names
 * carry the same values under upstream's older label names.
 */
public final class ContainerSeries {
    /** Upstream registers its collector with the constant label {@code zone="vGPU"}. */
    static final String ZONE = "vGPU";

    /** Upstream cuts the UUID to its first 40 characters (the length of an NVIDIA GPU UUID). */
    private static final int UUID_LENGTH = 40;

    private ContainerSeries() {}

    public static List<MetricSnapshot> of(
            List<ContainerRegion> regions, Map<String, PodName> pods, long nowSeconds, boolean legacy) {
        var used = new Series("hami_vgpu_memory_used_bytes", "vGPU device memory usage in bytes");
        var limit = new Series("hami_vgpu_memory_limit_bytes", "vGPU device memory limit in bytes");
        var memory = new Series("hami_container_device_memory_bytes", "Container device memory usage in bytes");
        var utilization =
                new Series("hami_container_device_utilization_ratio", "Container device SM utilization ratio");
        var lastKernel = new Series(
                "hami_container_last_kernel_elapsed_seconds", "Seconds since last kernel execution in container");
        var context = new Series("hami_vgpu_memory_context_bytes", "Container device memory context size in bytes");
        var module = new Series("hami_vgpu_memory_module_bytes", "Container device memory module size in bytes");
        var buffer = new Series("hami_vgpu_memory_buffer_bytes", "Container device memory buffer size in bytes");
        var legacyUsed = new Series("vGPU_device_memory_usage_in_bytes", "vGPU device usage");
        var legacyLimit = new Series("vGPU_device_memory_limit_in_bytes", "vGPU device limit");
        var legacyMemory = new Series("Device_memory_desc_of_container", "Container device memory description");
        var legacyUtilization =
                new Series("Device_utilization_desc_of_container", "Container device utilization description");
        var legacyLastKernel =
                new Series("Device_last_kernel_of_container", "Container device last kernel description");

        for (ContainerRegion c : regions) {
            PodName pod = pods.get(c.podUid());
            if (pod == null) {
                continue;
            }
            SharedRegion region = c.region();
            long lastKernelTime = region.control().lastKernelTimeSeconds();
            for (int i = 0; i < region.devices().size(); i++) {
                DeviceShare device = region.devices().get(i);
                if (device.uuid() == null || device.uuid().isEmpty()) {
                    continue; // HAMi-core has not filled this slot yet
                }
                String uuid =
                        device.uuid().length() > UUID_LENGTH ? device.uuid().substring(0, UUID_LENGTH) : device.uuid();
                Usage u = usage(region.processes(), i);
                String index = Integer.toString(i);
                Labels labels = Labels.of(
                        "namespace",
                        pod.namespace(),
                        "pod",
                        pod.name(),
                        "container",
                        c.container(),
                        "vdevice_index",
                        index,
                        "device_uuid",
                        uuid,
                        "zone",
                        ZONE);
                used.add(u.total, labels);
                limit.add(device.memoryLimitBytes(), labels);
                memory.add(u.total, labels);
                utilization.add(u.sm, labels);
                context.add(u.context, labels);
                module.add(u.module, labels);
                buffer.add(u.buffer, labels);
                double elapsed = Math.max(nowSeconds - lastKernelTime, 0);
                if (lastKernelTime > 0) {
                    lastKernel.add(elapsed, labels);
                }
                if (!legacy) {
                    continue;
                }
                Labels old = Labels.of(
                        "podnamespace",
                        pod.namespace(),
                        "podname",
                        pod.name(),
                        "ctrname",
                        c.container(),
                        "vdeviceid",
                        index,
                        "deviceuuid",
                        uuid,
                        "zone",
                        ZONE);
                legacyUsed.add(u.total, old);
                legacyLimit.add(device.memoryLimitBytes(), old);
                // Upstream's "data" label carries the buffer size; "offset" is what no kind accounts for.
                legacyMemory.add(
                        u.total,
                        old.add("context", Long.toString(u.context))
                                .add("module", Long.toString(u.module))
                                .add("data", Long.toString(u.buffer))
                                .add("offset", Long.toString(u.total - u.context - u.module - u.buffer)));
                legacyUtilization.add(u.sm, old);
                if (lastKernelTime > 0) {
                    legacyLastKernel.add(elapsed, old);
                }
            }
        }
        var out = new ArrayList<MetricSnapshot>(List.of(
                used.snapshot(),
                limit.snapshot(),
                memory.snapshot(),
                utilization.snapshot(),
                lastKernel.snapshot(),
                context.snapshot(),
                module.snapshot(),
                buffer.snapshot()));
        if (legacy) {
            out.addAll(List.of(
                    legacyUsed.snapshot(),
                    legacyLimit.snapshot(),
                    legacyMemory.snapshot(),
                    legacyUtilization.snapshot(),
                    legacyLastKernel.snapshot()));
        }
        return out;
    }

    /** One device's usage summed over the container's processes. */
    private record Usage(long total, long context, long module, long buffer, long sm) {}

    private static Usage usage(List<ProcessUsage> processes, int device) {
        long total = 0;
        long context = 0;
        long module = 0;
        long buffer = 0;
        long sm = 0;
        for (ProcessUsage p : processes) {
            if (device < p.memory().size()) {
                DeviceMemory m = p.memory().get(device);
                total += m.totalBytes();
                context += m.contextBytes();
                module += m.moduleBytes();
                // Upstream's "buffer" is HAMi-core's third counter, which the reader calls data (its DeviceMemory).
                buffer += m.dataBytes();
            }
            if (device < p.smUtilization().size()) {
                sm += p.smUtilization().get(device);
            }
        }
        return new Usage(total, context, module, buffer, sm);
    }
}
