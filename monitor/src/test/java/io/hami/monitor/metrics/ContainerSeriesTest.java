package io.hami.monitor.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.monitor.Regions;
import io.hami.monitor.pods.PodName;
import io.hami.monitor.scan.ContainerRegion;
import io.hami.nativebind.hamicore.DeviceMemory;
import io.hami.nativebind.nvml.NvmlUtilization;
import io.hami.testing.prometheus.PromText;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ContainerSeriesTest {
    static final String UUID = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";
    static final long MIB = 1 << 20;

    static List<PromText.Sample> text(List<MetricSnapshot> snapshots) throws IOException {
        var out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create().write(out, new MetricSnapshots(snapshots));
        return PromText.parse(out.toString(StandardCharsets.UTF_8));
    }

    static ContainerRegion twoProcesses(String pod, long lastKernel) {
        var region = Regions.region(
                UUID + "-extra", // longer than 40: upstream cuts it
                4096 * MIB,
                lastKernel,
                List.of(
                        new DeviceMemory(8 * MIB, 4 * MIB, 50 * MIB, 2 * MIB, 64 * MIB),
                        new DeviceMemory(8 * MIB, 0, 20 * MIB, 4 * MIB, 32 * MIB)),
                30,
                12);
        return new ContainerRegion(Path.of("/h/" + pod + "_main/x.cache"), pod, "main", region);
    }

    @Test
    void perDeviceValuesAreSummedOverProcessesUnderUpstreamsLabels() throws IOException {
        var samples = text(ContainerSeries.of(
                List.of(twoProcesses("uid-1", 1_000)), Map.of("uid-1", new PodName("ns", "p")), 1_030, false));

        String[] labels = {
            "namespace",
            "ns",
            "pod",
            "p",
            "container",
            "main",
            "vdevice_index",
            "0",
            "device_uuid",
            UUID,
            "zone",
            "vGPU"
        };
        assertThat(PromText.value(samples, "hami_vgpu_memory_used_bytes", labels))
                .isEqualTo(96.0 * MIB);
        assertThat(PromText.value(samples, "hami_container_device_memory_bytes", labels))
                .isEqualTo(96.0 * MIB);
        assertThat(PromText.value(samples, "hami_vgpu_memory_limit_bytes", labels))
                .isEqualTo(4096.0 * MIB);
        assertThat(PromText.value(samples, "hami_container_device_utilization_ratio", labels))
                .isEqualTo(42.0);
        assertThat(PromText.value(samples, "hami_vgpu_memory_context_bytes", labels))
                .isEqualTo(16.0 * MIB);
        assertThat(PromText.value(samples, "hami_vgpu_memory_module_bytes", labels))
                .isEqualTo(4.0 * MIB);
        // Upstream's "buffer" is HAMi-core's third counter (data); the fourth (offset) is not shown.
        assertThat(PromText.value(samples, "hami_vgpu_memory_buffer_bytes", labels))
                .isEqualTo(70.0 * MIB);
        assertThat(PromText.value(samples, "hami_container_last_kernel_elapsed_seconds", labels))
                .isEqualTo(30.0);
        assertThat(samples).noneMatch(s -> s.name().equals("vGPU_device_memory_usage_in_bytes"));
    }

    @Test
    void containersOfUnknownPodsAndKernelsNeverLaunchedHaveNoSeries() throws IOException {
        var samples = text(ContainerSeries.of(
                List.of(twoProcesses("uid-1", 0), twoProcesses("uid-2", 5)),
                Map.of("uid-1", new PodName("ns", "p")),
                100,
                false));

        assertThat(PromText.find(samples, "hami_vgpu_memory_used_bytes")).hasSize(1);
        assertThat(PromText.find(samples, "hami_container_last_kernel_elapsed_seconds"))
                .isEmpty();
    }

    @Test
    void legacyNamesCarryTheOldLabelsAndTheMemoryBreakdown() throws IOException {
        var samples = text(ContainerSeries.of(
                List.of(twoProcesses("uid-1", 90)), Map.of("uid-1", new PodName("ns", "p")), 100, true));

        String[] old = {"podnamespace", "ns", "podname", "p", "ctrname", "main", "vdeviceid", "0", "deviceuuid", UUID};
        assertThat(PromText.value(samples, "vGPU_device_memory_usage_in_bytes", old))
                .isEqualTo(96.0 * MIB);
        assertThat(PromText.value(samples, "vGPU_device_memory_limit_in_bytes", old))
                .isEqualTo(4096.0 * MIB);
        assertThat(PromText.value(samples, "Device_utilization_desc_of_container", old))
                .isEqualTo(42.0);
        assertThat(PromText.value(samples, "Device_last_kernel_of_container", old))
                .isEqualTo(10.0);
        var memory = PromText.find(samples, "Device_memory_desc_of_container", old);
        assertThat(memory)
                .singleElement()
                .satisfies(s -> assertThat(s.labels())
                        .containsEntry("context", Long.toString(16 * MIB))
                        .containsEntry("module", Long.toString(4 * MIB))
                        .containsEntry("data", Long.toString(70 * MIB))
                        .containsEntry("offset", Long.toString(6 * MIB)));
    }

    @Test
    void hostGaugesCarryNodeAndDeviceLabels() throws IOException {
        var samples = text(HostSeries.of(
                List.of(
                        new HostGpu(1, UUID, "NVIDIA-A100", 123 * MIB, Optional.of(new NvmlUtilization(70, 40))),
                        new HostGpu(2, "GPU-other", "NVIDIA-A100", 0, Optional.empty())),
                "node-a",
                true));

        String[] labels = {"node", "node-a", "device_index", "1", "device_uuid", UUID, "device_type", "NVIDIA-A100"};
        assertThat(PromText.value(samples, "hami_host_gpu_memory_used_bytes", labels))
                .isEqualTo(123.0 * MIB);
        assertThat(PromText.value(samples, "HostGPUMemoryUsage", "nodeid", "node-a", "deviceidx", "1"))
                .isEqualTo(123.0 * MIB);
        assertThat(PromText.value(samples, "hami_host_gpu_utilization_ratio", labels))
                .isEqualTo(70.0);
        assertThat(PromText.value(samples, "hami_host_gpu_memory_controller_utilization_ratio", labels))
                .isEqualTo(40.0);
        assertThat(PromText.value(samples, "HostCoreUtilization", "nodeid", "node-a", "deviceidx", "1"))
                .isEqualTo(70.0);
        // a GPU without utilisation readings has its memory gauge only
        assertThat(PromText.find(samples, "hami_host_gpu_memory_used_bytes", "device_index", "2"))
                .hasSize(1);
        assertThat(PromText.find(samples, "hami_host_gpu_utilization_ratio", "device_index", "2"))
                .isEmpty();
        assertThat(PromText.find(samples, "HostCoreUtilization", "deviceidx", "2"))
                .isEmpty();
    }
}
