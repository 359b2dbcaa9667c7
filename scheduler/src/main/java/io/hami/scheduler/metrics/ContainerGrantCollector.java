package io.hami.scheduler.metrics;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.usage.PodUsage;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Upstream's per-container gauges (docs/upstream.md#metrics): what each container of the pods the usage index
 * counts was granted of each device, read from their allocated annotations at scrape time. Served only with
 * {@code --container-metrics}: two series per container and device, so they grow with the pods.
 *
 * <p>A pod's series are decoded once and kept while its node and allocated annotations are the same, so a
 * scrape of an unchanged cluster decodes nothing.
 */
final class ContainerGrantCollector implements MultiCollector {
    static final String MEMORY = "hami_vgpu_memory_allocated_bytes";
    static final String CORES = "hami_vgpu_core_allocated_ratio";
    private static final double MIB = 1024 * 1024;
    private static final MetricMetadata MEMORY_META =
            new MetricMetadata(MEMORY, "vGPU device memory allocated to a container");
    private static final MetricMetadata CORES_META =
            new MetricMetadata(CORES, "vGPU device cores allocated to a container");

    private final Supplier<List<Pod>> pods;
    private final List<DeviceBackend> backends;
    /** Pod namespace/name to its series as of the annotations last seen. */
    private final Map<String, PodSeries> cache = new ConcurrentHashMap<>();

    ContainerGrantCollector(Supplier<List<Pod>> pods, DeviceBackends backends) {
        this.pods = pods;
        this.backends = List.copyOf(backends.all());
    }

    /**
     * One pod's series: per backend the allocated annotation they were decoded from ({@code values}), then per
     * container and device its labels and what it was granted.
     */
    private record PodSeries(String node, String[] values, Labels[] labels, long[] mem, long[] cores) {
        boolean matches(String node, Map<String, String> annotations, List<DeviceBackend> backends) {
            if (!this.node.equals(node)) {
                return false;
            }
            for (int b = 0; b < values.length; b++) {
                String value = annotations.get(backends.get(b).keys().allocatedKey());
                if (!Objects.equals(value, values[b])) {
                    return false;
                }
            }
            return true;
        }
    }

    /** One container's share of one device. */
    private record Key(int container, String device) {}

    @Override
    public MetricSnapshots collect() {
        var memory = new ArrayList<GaugeDataPointSnapshot>();
        var cores = new ArrayList<GaugeDataPointSnapshot>();
        List<Pod> all = pods.get();
        int counted = 0;
        for (Pod pod : all) {
            String node = PodUsage.countedNode(pod);
            Map<String, String> annotations = pod.getMetadata().getAnnotations();
            if (node == null || !allocated(annotations)) {
                continue;
            }
            String key = key(pod);
            PodSeries series = cache.get(key);
            if (series == null || !series.matches(node, annotations, backends)) {
                series = series(pod, node, annotations);
                cache.put(key, series);
            }
            counted++;
            for (int i = 0; i < series.labels().length; i++) {
                memory.add(new GaugeDataPointSnapshot(series.mem()[i] * MIB, series.labels()[i], null));
                cores.add(new GaugeDataPointSnapshot(series.cores()[i], series.labels()[i], null));
            }
        }
        if (cache.size() > counted) {
            forgetGone(all);
        }
        return new MetricSnapshots(new GaugeSnapshot(MEMORY_META, memory), new GaugeSnapshot(CORES_META, cores));
    }

    /** Whether any vendor's allocated annotation is there: only those pods have series, and are kept. */
    private boolean allocated(Map<String, String> annotations) {
        if (annotations == null) {
            return false;
        }
        for (DeviceBackend b : backends) {
            if (annotations.containsKey(b.keys().allocatedKey())) {
                return true;
            }
        }
        return false;
    }

    private static String key(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }

    /** Drops the series of pods that are gone or no longer counted. */
    private void forgetGone(List<Pod> all) {
        var live = new HashSet<String>();
        for (Pod pod : all) {
            if (PodUsage.countedNode(pod) != null && allocated(pod.getMetadata().getAnnotations())) {
                live.add(key(pod));
            }
        }
        cache.keySet().retainAll(live);
    }

    private PodSeries series(Pod pod, String node, Map<String, String> annotations) {
        var values = new String[backends.size()];
        // Summed per container and device: a device listed twice for one container must not fail the scrape.
        var mem = new LinkedHashMap<Key, Long>();
        var cores = new LinkedHashMap<Key, Long>();
        for (int b = 0; b < backends.size(); b++) {
            String value = annotations.get(backends.get(b).keys().allocatedKey());
            values[b] = value;
            if (value == null) {
                continue;
            }
            PodDevices devices;
            try {
                devices = PodDevicesCodec.decode(value);
            } catch (AnnotationFormatException e) {
                continue; // the usage index reports the node as failing closed
            }
            for (int i = 0; i < devices.containers().size(); i++) {
                for (ContainerDevice d : devices.containers().get(i)) {
                    var k = new Key(i, d.uuid());
                    mem.merge(k, (long) d.usedmem(), Long::sum);
                    cores.merge(k, (long) d.usedcores(), Long::sum);
                }
            }
        }
        int n = mem.size();
        var labels = new Labels[n];
        var memOut = new long[n];
        var coresOut = new long[n];
        int i = 0;
        for (var e : mem.entrySet()) {
            Key k = e.getKey();
            labels[i] = Labels.of(
                    "namespace",
                    pod.getMetadata().getNamespace(),
                    "node",
                    node,
                    "pod",
                    pod.getMetadata().getName(),
                    "container_index",
                    Integer.toString(k.container()),
                    "device_uuid",
                    k.device(),
                    "zone",
                    DeviceUsageCollector.ZONE);
            memOut[i] = e.getValue();
            coresOut[i] = cores.get(k);
            i++;
        }
        return new PodSeries(node, values, labels, memOut, coresOut);
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(MEMORY, CORES);
    }
}
