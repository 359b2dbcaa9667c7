package io.hami.deploy;

import io.grpc.Status;
import io.hami.kube.events.PodEvents;
import io.hami.monitor.metrics.HostGpu;
import io.hami.monitor.metrics.HostGpus;
import io.hami.monitor.metrics.HostSeries;
import io.hami.monitor.metrics.MonitorMetrics;
import io.hami.monitor.pods.PodName;
import io.hami.monitor.scan.ContainerRegion;
import io.hami.nativebind.hamicore.Control;
import io.hami.nativebind.hamicore.DeviceMemory;
import io.hami.nativebind.hamicore.DeviceShare;
import io.hami.nativebind.hamicore.ProcessUsage;
import io.hami.nativebind.hamicore.SharedRegion;
import io.hami.nativebind.nvml.NvmlUtilization;
import io.hami.plugin.health.HealthBoard;
import io.hami.plugin.metrics.PluginMetrics;
import io.hami.plugin.spi.PhysicalDevice;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The metric families each component serves, taken from the running code with a sample in every family: the
 * scheduler's from {@link SchedulerRun}, a plugin's and the node monitor's from their recorders fed once. Shared by
 * the tests that hold docs and dashboards to what is served.
 */
final class ServedMetrics {
    private ServedMetrics() {}

    /** The name Prometheus scrapes: counters end in {@code _total}. */
    static String exposed(MetricSnapshot metric) {
        String name = metric.getMetadata().getPrometheusName();
        return metric instanceof CounterSnapshot && !name.endsWith("_total") ? name + "_total" : name;
    }

    /** Every metric of the running scheduler (the manifests' settings, with {@code --container-metrics}). */
    static List<MetricSnapshot> scheduler() throws Exception {
        return SchedulerRun.get().metrics.stream().toList();
    }

    /** Every metric of a plugin, each with a sample (the recorders are what the plugin's parts call). */
    static List<MetricSnapshot> plugin() {
        var registry = new PrometheusRegistry();
        var metrics = new PluginMetrics(registry, "n1", "nvidia");
        metrics.watchHealth(
                List.of(new PhysicalDevice(0, "GPU-0", "GPU-0", "m", 1024, -1)), new HealthBoard(), "nvidia.com/gpu");
        metrics.allocated("nvidia.com/gpu", Status.Code.OK, Duration.ofMillis(5));
        metrics.listSent("nvidia.com/gpu");
        metrics.registered("nvidia.com/gpu", true);
        metrics.registerWritten(true);
        metrics.handshakeAnswered(true);
        metrics.eventNotWritten(PodEvents.NotWritten.DROPPED);
        return registry.scrape().stream().toList();
    }

    /**
     * Every metric of the NVIDIA node monitor without {@code --legacy-metrics}: its registry over one container
     * region that launched a kernel, plus the host gauges of one GPU (the monitor reads those from NVML).
     */
    static List<MetricSnapshot> monitor() {
        var registry = new PrometheusRegistry();
        var region = new SharedRegion(
                1,
                1,
                List.of(new DeviceShare("GPU-0", 1L << 30, 50)),
                List.of(new ProcessUsage(
                        1, 1001, List.of(new DeviceMemory(1 << 20, 1 << 20, 1 << 20, 1 << 20, 4 << 20)), List.of(30L))),
                new Control(0, 0, 0, 90));
        var view = new MonitorMetrics.View(
                List.of(new ContainerRegion(Path.of("/h/uid-1_main/r.cache"), "uid-1", "main", region)),
                Map.of("uid-1", new PodName("ns", "p")));
        var metrics = new MonitorMetrics(
                registry,
                "test",
                "n1",
                false,
                () -> view,
                HostGpus.none(),
                Clock.fixed(Instant.ofEpochSecond(100), ZoneOffset.UTC));
        metrics.skipped("truncated");
        var out = new ArrayList<MetricSnapshot>(registry.scrape().stream().toList());
        out.addAll(HostSeries.of(
                List.of(new HostGpu(0, "GPU-0", "NVIDIA-A100", 1 << 20, Optional.of(new NvmlUtilization(50, 20)))),
                "n1",
                false));
        return out;
    }
}
