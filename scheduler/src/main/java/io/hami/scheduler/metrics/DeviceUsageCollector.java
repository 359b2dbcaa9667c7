package io.hami.scheduler.metrics;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Upstream's per-device gauges (docs/upstream.md#metrics), read from the usage index at scrape time. Upstream
 * serves a copy refreshed every 15 s by the register loop; the index is always current and one node costs
 * O(its devices), so there is nothing to refresh in the background.
 *
 * <p>Seven series per device, whatever the number of pods. At 5,000 nodes that is 280,000 series per scrape, so
 * the label sets are built once per inventory ({@link Layout}) and kept in each family's label order: a scrape
 * only reads the usage and makes one data point per series, and the client library's sort of each family finds
 * it already sorted (one pass instead of n log n label comparisons).
 *
 * <p>This is the registry's view ({@code registry.scrape()}: tests, protobuf and {@code name[]} requests); the
 * {@code /metrics} server writes the same series from {@link DeviceSeries}, which keeps each node's lines.
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

    private static final MetricMetadata MEMORY_LIMIT_META =
            new MetricMetadata(MEMORY_LIMIT, "Device memory limit for a certain GPU");
    private static final MetricMetadata CORE_LIMIT_META =
            new MetricMetadata(CORE_LIMIT, "Device core limit for a certain GPU");
    private static final MetricMetadata MEMORY_ALLOCATED_META =
            new MetricMetadata(MEMORY_ALLOCATED, "Device memory allocated for a certain GPU");
    private static final MetricMetadata SHARED_META =
            new MetricMetadata(SHARED_COUNT, "Number of containers sharing this GPU");
    private static final MetricMetadata CORE_ALLOCATED_META =
            new MetricMetadata(CORE_ALLOCATED, "Device core allocated for a certain GPU");
    private static final MetricMetadata OVERVIEW_META = new MetricMetadata(OVERVIEW, "GPU overview on a certain node");
    private static final MetricMetadata MEMORY_RATIO_META =
            new MetricMetadata(MEMORY_RATIO, "GPU Memory Allocated Percentage on a certain GPU");
    private static final MetricMetadata UNDECODABLE_META = new MetricMetadata(
            UNDECODABLE, "Pods whose device allocation annotation cannot be read; their node takes no new pods");

    private final UsageIndex index;
    /** The label sets of the inventory last scraped; replaced whole when any node's inventory differs. */
    private volatile Layout layout = Layout.EMPTY;

    DeviceUsageCollector(UsageIndex index) {
        this.index = index;
    }

    /** One device's series: where its usage goes in a scrape's arrays, and its three label sets. */
    private record Row(int slot, DeviceInfo device, Labels base, Labels withCores, Labels overview) {}

    /**
     * One node's inventory as the scrape walks it: vendors in name order, each vendor's devices in listing order
     * ({@code devices}), and each one's row ({@code rows}, aligned; null for a UUID listed again, whose first
     * listing is kept: a duplicate would make the whole scrape fail).
     */
    private record NodeRows(String[] vendors, DeviceInfo[] devices, Row[] rows) {
        /** Whether {@code view} lists exactly these devices in this order. */
        boolean matches(Map<String, List<DeviceUsage>> view) {
            if (view.size() != vendors.length) {
                return false;
            }
            int i = 0;
            for (String vendor : vendors) {
                List<DeviceUsage> usages = view.get(vendor);
                if (usages == null || i + usages.size() > devices.length) {
                    return false;
                }
                for (int k = 0; k < usages.size(); k++, i++) {
                    DeviceInfo d = usages.get(k).device();
                    if (!Objects.equals(d, devices[i])) {
                        return false;
                    }
                }
            }
            return i == devices.length;
        }
    }

    /** Every node's rows, and all rows in the label order of each kind of label set. */
    private record Layout(Map<String, NodeRows> nodes, Row[] byBase, Row[] byWithCores, Row[] byOverview) {
        static final Layout EMPTY = new Layout(Map.of(), new Row[0], new Row[0], new Row[0]);
    }

    @Override
    public MetricSnapshots collect() {
        List<String> names = index.nodeNames();
        var views = new ArrayList<Map<String, List<DeviceUsage>>>(names.size());
        var nodes = new ArrayList<String>(names.size());
        Layout current = layout;
        boolean same = true;
        for (String node : names) {
            var snapshot = index.snapshot(node);
            if (snapshot.isEmpty()) {
                continue; // removed between nodeNames() and snapshot()
            }
            var devices = snapshot.get().view().devices();
            nodes.add(node);
            views.add(devices);
            if (same) {
                NodeRows rows = current.nodes().get(node);
                same = rows != null && rows.matches(devices);
            }
        }
        if (!same || current.nodes().size() != nodes.size()) {
            current = layout(nodes, views);
            layout = current;
        }
        int size = current.byBase().length;
        var used = new int[size];
        var usedmem = new int[size];
        var usedcores = new int[size];
        for (int n = 0; n < nodes.size(); n++) {
            NodeRows node = current.nodes().get(nodes.get(n));
            Row[] rows = node.rows();
            int i = 0;
            for (String vendor : node.vendors()) {
                List<DeviceUsage> usages = views.get(n).get(vendor);
                for (int k = 0; k < usages.size(); k++, i++) {
                    Row row = rows[i];
                    if (row != null) {
                        DeviceUsage u = usages.get(k);
                        used[row.slot()] = u.used();
                        usedmem[row.slot()] = u.usedmem();
                        usedcores[row.slot()] = u.usedcores();
                    }
                }
            }
        }
        var memoryLimit = new ArrayList<GaugeDataPointSnapshot>(size);
        var coreLimit = new ArrayList<GaugeDataPointSnapshot>(size);
        var shared = new ArrayList<GaugeDataPointSnapshot>(size);
        var coreAllocated = new ArrayList<GaugeDataPointSnapshot>(size);
        var memoryRatio = new ArrayList<GaugeDataPointSnapshot>(size);
        for (Row r : current.byBase()) {
            DeviceInfo d = r.device();
            int s = r.slot();
            memoryLimit.add(point(r.base(), d.devmem() * MIB));
            coreLimit.add(point(r.base(), d.devcore()));
            shared.add(point(r.base(), used[s]));
            coreAllocated.add(point(r.base(), usedcores[s]));
            if (d.devmem() > 0) {
                memoryRatio.add(point(r.base(), (double) usedmem[s] / d.devmem()));
            }
        }
        var memoryAllocated = new ArrayList<GaugeDataPointSnapshot>(size);
        for (Row r : current.byWithCores()) {
            memoryAllocated.add(point(r.withCores(), usedmem[r.slot()] * MIB));
        }
        var overview = new ArrayList<GaugeDataPointSnapshot>(size);
        for (Row r : current.byOverview()) {
            overview.add(point(r.overview(), usedmem[r.slot()] * MIB));
        }
        return new MetricSnapshots(List.<MetricSnapshot>of(
                new GaugeSnapshot(MEMORY_LIMIT_META, memoryLimit),
                new GaugeSnapshot(CORE_LIMIT_META, coreLimit),
                new GaugeSnapshot(MEMORY_ALLOCATED_META, memoryAllocated),
                new GaugeSnapshot(SHARED_META, shared),
                new GaugeSnapshot(CORE_ALLOCATED_META, coreAllocated),
                new GaugeSnapshot(OVERVIEW_META, overview),
                new GaugeSnapshot(MEMORY_RATIO_META, memoryRatio)));
    }

    /**
     * Per node, the pods whose allocation cannot be read. Its own collector: the {@code /metrics} server serves the
     * device families from {@link DeviceSeries} and leaves this collector out, not this small family.
     */
    static GaugeSnapshot undecodable(UsageIndex index) {
        var undecodable = new ArrayList<GaugeDataPointSnapshot>();
        index.undecodablePods().forEach((node, pods) -> undecodable.add(point(Labels.of("node", node), pods)));
        return new GaugeSnapshot(UNDECODABLE_META, undecodable);
    }

    /** Label sets for every device of {@code views}; built when the inventory changed, not per scrape. */
    private static Layout layout(List<String> nodes, List<Map<String, List<DeviceUsage>>> views) {
        var byNode = new HashMap<String, NodeRows>(nodes.size() * 2);
        var all = new ArrayList<Row>();
        for (int n = 0; n < nodes.size(); n++) {
            String node = nodes.get(n);
            var view = views.get(n);
            String[] vendors = view.keySet().toArray(String[]::new);
            Arrays.sort(vendors);
            var devices = new ArrayList<DeviceInfo>();
            var rows = new ArrayList<Row>();
            var seen = new HashSet<String>();
            for (String vendor : vendors) {
                for (DeviceUsage u : view.get(vendor)) {
                    DeviceInfo d = u.device();
                    devices.add(d);
                    if (!seen.add(d.id())) {
                        rows.add(null);
                        continue;
                    }
                    Labels[] sets = labels(node, d);
                    Row row = new Row(all.size(), d, sets[0], sets[1], sets[2]);
                    all.add(row);
                    rows.add(row);
                }
            }
            byNode.put(node, new NodeRows(vendors, devices.toArray(DeviceInfo[]::new), rows.toArray(Row[]::new)));
        }
        return new Layout(
                Map.copyOf(byNode), sorted(all, Row::base), sorted(all, Row::withCores), sorted(all, Row::overview));
    }

    /**
     * A device's three label sets: upstream's base set, with {@code device_cores}, and with {@code device_cores} and
     * {@code device_memory_limit} (the overview). Shared with {@link DeviceSeries}, which writes the same series.
     */
    static Labels[] labels(String node, DeviceInfo d) {
        Labels base = Labels.of(
                "node",
                node,
                "device_uuid",
                d.id(),
                "device_index",
                Integer.toString(d.index()),
                "device_type",
                d.type(),
                "zone",
                ZONE);
        Labels withCores = base.add("device_cores", Integer.toString(d.devcore()));
        return new Labels[] {base, withCores, withCores.add("device_memory_limit", Integer.toString(d.devmem()))};
    }

    private static Row[] sorted(List<Row> rows, Function<Row, Labels> labels) {
        Row[] out = rows.toArray(Row[]::new);
        Arrays.sort(out, Comparator.comparing(labels));
        return out;
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(
                MEMORY_LIMIT, CORE_LIMIT, MEMORY_ALLOCATED, SHARED_COUNT, CORE_ALLOCATED, OVERVIEW, MEMORY_RATIO);
    }

    private static GaugeDataPointSnapshot point(Labels labels, double value) {
        return new GaugeDataPointSnapshot(value, labels, null);
    }
}
