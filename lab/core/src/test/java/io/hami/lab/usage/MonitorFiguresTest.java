package io.hami.lab.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;
import org.junit.jupiter.api.Test;

class MonitorFiguresTest {
    private static GaugeSnapshot gauge(String name, double value, Labels labels) {
        return new GaugeSnapshot(new MetricMetadata(name), List.of(new GaugeDataPointSnapshot(value, labels, null)));
    }

    @Test
    void pairsEachContainersMemoryWithItsLimitByLabels() {
        Labels labels = Labels.of(
                "namespace",
                "default",
                "pod",
                "p-0",
                "container",
                "c",
                "vdevice_index",
                "1",
                "device_uuid",
                "GPU-b",
                "zone",
                "vGPU");
        var scrape = new MetricSnapshots(
                gauge("hami_vgpu_memory_used_bytes", 3e9, labels),
                gauge("hami_vgpu_memory_limit_bytes", 4e9, labels),
                gauge("hami_host_gpu_memory_used_bytes", 9e9, Labels.of("device_uuid", "GPU-b")));

        assertThat(MonitorFigures.of(scrape))
                .containsExactly(new ContainerUsage("default/p-0", "c", 1, "GPU-b", 3_000_000_000L, 4_000_000_000L));
    }
}
