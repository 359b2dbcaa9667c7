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
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Upstream's per-container gauges (upstream-scheduler.md §8.1): what each container of each running or
 * allocating pod was granted of each device, read from the pods' allocated annotations at scrape time.
 */
final class ContainerGrantCollector implements MultiCollector {
    static final String MEMORY = "hami_vgpu_memory_allocated_bytes";
    static final String CORES = "hami_vgpu_core_allocated_ratio";
    private static final double MIB = 1024 * 1024;
    private static final String ZONE = "vGPU";

    private final Supplier<List<Pod>> pods;
    private final DeviceBackends backends;

    ContainerGrantCollector(Supplier<List<Pod>> pods, DeviceBackends backends) {
        this.pods = pods;
        this.backends = backends;
    }

    /** Memory and cores of one container on one device. */
    private record Held(long mem, long cores) {
        Held plus(ContainerDevice d) {
            return new Held(mem + d.usedmem(), cores + d.usedcores());
        }
    }

    @Override
    public MetricSnapshots collect() {
        // Sorted and summed per label set: a device listed twice for one container must not fail the scrape.
        var held = new TreeMap<List<String>, Held>((a, b) -> String.join("\u0000", a).compareTo(String.join("\u0000", b)));
        for (Pod pod : pods.get()) {
            // only pods the usage index counts: bound and not finished, or with a bind in flight
            if (!(PodUsage.of(pod, backends) instanceof PodUsage.Counted counted)) {
                continue;
            }
            String node = counted.node();
            Map<String, String> annotations = pod.getMetadata().getAnnotations();
            for (DeviceBackend b : backends.all()) {
                String value = annotations.get(b.keys().allocatedKey());
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
                        var key = List.of(pod.getMetadata().getNamespace(), node, pod.getMetadata().getName(), Integer.toString(i), d.uuid());
                        held.merge(key, new Held(0, 0).plus(d), (x, y) -> new Held(x.mem() + y.mem(), x.cores() + y.cores()));
                    }
                }
            }
        }
        var memory = GaugeSnapshot.builder().name(MEMORY).help("vGPU device memory allocated to a container");
        var cores = GaugeSnapshot.builder().name(CORES).help("vGPU device cores allocated to a container");
        held.forEach((k, h) -> {
            Labels labels = Labels.of("namespace", k.get(0), "node", k.get(1), "pod", k.get(2), "container_index", k.get(3),
                    "device_uuid", k.get(4), "zone", ZONE);
            memory.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(h.mem() * MIB).build());
            cores.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(h.cores()).build());
        });
        return new MetricSnapshots(memory.build(), cores.build());
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(MEMORY, CORES);
    }
}
