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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Upstream's per-container gauges (upstream-scheduler.md §8.1): what each container of the pods the usage index
 * counts was granted of each device, read from their allocated annotations at scrape time.
 */
final class ContainerGrantCollector implements MultiCollector {
    static final String MEMORY = "hami_vgpu_memory_allocated_bytes";
    static final String CORES = "hami_vgpu_core_allocated_ratio";
    private static final double MIB = 1024 * 1024;

    private final Supplier<List<Pod>> pods;
    private final DeviceBackends backends;

    ContainerGrantCollector(Supplier<List<Pod>> pods, DeviceBackends backends) {
        this.pods = pods;
        this.backends = backends;
    }

    /** One container's share of one device. */
    private record Key(String namespace, String node, String pod, int container, String device) {
    }

    @Override
    public MetricSnapshots collect() {
        // Summed per label set: a device listed twice for one container must not fail the scrape.
        var mem = new HashMap<Key, Long>();
        var cores = new HashMap<Key, Long>();
        for (Pod pod : pods.get()) {
            String node = PodUsage.countedNode(pod);
            if (node == null) {
                continue;
            }
            Map<String, String> annotations = pod.getMetadata().getAnnotations();
            for (DeviceBackend b : backends.all()) {
                String value = annotations == null ? null : annotations.get(b.keys().allocatedKey());
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
                        var key = new Key(pod.getMetadata().getNamespace(), node, pod.getMetadata().getName(), i, d.uuid());
                        mem.merge(key, (long) d.usedmem(), Long::sum);
                        cores.merge(key, (long) d.usedcores(), Long::sum);
                    }
                }
            }
        }
        var memory = GaugeSnapshot.builder().name(MEMORY).help("vGPU device memory allocated to a container");
        var coreRatio = GaugeSnapshot.builder().name(CORES).help("vGPU device cores allocated to a container");
        mem.forEach((k, m) -> {
            Labels labels = Labels.of("namespace", k.namespace(), "node", k.node(), "pod", k.pod(),
                    "container_index", Integer.toString(k.container()), "device_uuid", k.device(), "zone", DeviceUsageCollector.ZONE);
            memory.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(m * MIB).build());
            coreRatio.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(cores.get(k)).build());
        });
        return new MetricSnapshots(memory.build(), coreRatio.build());
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(MEMORY, CORES);
    }
}
