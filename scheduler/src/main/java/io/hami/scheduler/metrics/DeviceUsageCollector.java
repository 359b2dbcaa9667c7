package io.hami.scheduler.metrics;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.TreeMap;

/**
 * Upstream's per-device gauges (upstream-scheduler.md §8.1), read from the usage index at scrape time. Upstream
 * serves a copy refreshed every 15 s by the register loop; the index is always current and one node costs
 * O(its devices), so there is nothing to refresh in the background.
 */
final class DeviceUsageCollector implements MultiCollector {
    static final String MEMORY_LIMIT = "hami_gpu_memory_limit_bytes";
    static final String CORE_LIMIT = "hami_gpu_core_limit_ratio";
    static final String MEMORY_ALLOCATED = "hami_gpu_memory_allocated_bytes";
    static final String SHARED_COUNT = "hami_gpu_shared_count";
    static final String CORE_ALLOCATED = "hami_gpu_core_allocated_ratio";
    static final String OVERVIEW = "hami_node_gpu_overview";
    static final String MEMORY_RATIO = "hami_node_gpu_memory_allocated_ratio";
    /** Ours: pods whose allocated annotation does not decode; their node fails closed while any is there. */
    static final String UNDECODABLE = "hami_undecodable_allocation_pods";

    private static final double MIB = 1024 * 1024;
    /** Upstream registers these behind {@code WrapRegistererWith(zone="vGPU")}; dashboards select on it. */
    static final String ZONE = "vGPU";

    private final UsageIndex index;

    DeviceUsageCollector(UsageIndex index) {
        this.index = index;
    }

    @Override
    public MetricSnapshots collect() {
        var memoryLimit = family(MEMORY_LIMIT, "Device memory limit for a certain GPU");
        var coreLimit = family(CORE_LIMIT, "Device core limit for a certain GPU");
        var memoryAllocated = family(MEMORY_ALLOCATED, "Device memory allocated for a certain GPU");
        var shared = family(SHARED_COUNT, "Number of containers sharing this GPU");
        var coreAllocated = family(CORE_ALLOCATED, "Device core allocated for a certain GPU");
        var overview = family(OVERVIEW, "GPU overview on a certain node");
        var memoryRatio = family(MEMORY_RATIO, "GPU Memory Allocated Percentage on a certain GPU");
        for (String node : index.nodeNames()) {
            var snapshot = index.snapshot(node);
            if (snapshot.isEmpty()) {
                continue; // removed between nodeNames() and snapshot()
            }
            // A device listed twice (a malformed register annotation) would make the whole scrape fail
            // with duplicate labels; its first listing is kept.
            var seen = new HashSet<String>();
            for (List<DeviceUsage> devices : new TreeMap<>(snapshot.get().view().devices()).values()) {
                for (DeviceUsage u : devices) {
                    DeviceInfo d = u.device();
                    if (!seen.add(d.id())) {
                        continue;
                    }
                    String idx = Integer.toString(d.index());
                    Labels base = Labels.of("node", node, "device_uuid", d.id(), "device_index", idx, "device_type", d.type(),
                            "zone", ZONE);
                    Labels withCores = base.add("device_cores", Integer.toString(d.devcore()));
                    memoryLimit.dataPoint(point(base, d.devmem() * MIB));
                    coreLimit.dataPoint(point(base, d.devcore()));
                    memoryAllocated.dataPoint(point(withCores, u.usedmem() * MIB));
                    shared.dataPoint(point(base, u.used()));
                    coreAllocated.dataPoint(point(base, u.usedcores()));
                    overview.dataPoint(point(withCores.add("device_memory_limit", Integer.toString(d.devmem())), u.usedmem() * MIB));
                    if (d.devmem() > 0) {
                        memoryRatio.dataPoint(point(base, (double) u.usedmem() / d.devmem()));
                    }
                }
            }
        }
        var undecodable = family(UNDECODABLE, "Pods whose device allocation annotation cannot be read; their node takes no new pods");
        index.undecodablePods().forEach((node, pods) -> undecodable.dataPoint(point(Labels.of("node", node), pods)));
        var out = new ArrayList<MetricSnapshot>();
        for (var family : List.of(memoryLimit, coreLimit, memoryAllocated, shared, coreAllocated, overview, memoryRatio, undecodable)) {
            out.add(family.build());
        }
        return new MetricSnapshots(out);
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(MEMORY_LIMIT, CORE_LIMIT, MEMORY_ALLOCATED, SHARED_COUNT, CORE_ALLOCATED, OVERVIEW, MEMORY_RATIO, UNDECODABLE);
    }

    private static GaugeSnapshot.Builder family(String name, String help) {
        return GaugeSnapshot.builder().name(name).help(help);
    }

    private static GaugeDataPointSnapshot point(Labels labels, double value) {
        return GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
    }
}
