package io.hami.monitor.metrics;

import io.hami.monitor.pods.PodName;
import io.hami.monitor.scan.ContainerRegion;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The monitor's metrics: upstream's host and per-container gauges, built per scrape from the last scan (at most
 * one scan interval old; upstream reads the regions at scrape time) and NVML, plus {@code hami_build_info} and
 * the count of unusable region files.
 */
public final class MonitorMetrics {
    /** The containers of the last scan and the pods they belong to. */
    public record View(List<ContainerRegion> regions, Map<String, PodName> pods) {
        public static final View EMPTY = new View(List.of(), Map.of());
    }

    private final Counter skipped;

    public MonitorMetrics(
            PrometheusRegistry registry,
            String version,
            String node,
            boolean legacy,
            Supplier<View> view,
            HostGpus host,
            Clock clock) {
        Gauge.builder()
                .name("hami_build_info")
                .help("A metric with a constant '1' value labeled by version")
                .labelNames("version")
                .register(registry)
                .labelValues(version)
                .set(1);
        skipped = Counter.builder()
                .name("hami_monitor_region_skipped_total")
                .help("Region files found unusable (each counted once when it turns unusable), by reason")
                .labelNames("reason")
                .register(registry);
        registry.register(new MultiCollector() {
            @Override
            public MetricSnapshots collect() {
                View v = view.get();
                var all = new ArrayList<MetricSnapshot>(
                        ContainerSeries.of(v.regions(), v.pods(), clock.millis() / 1000, legacy));
                all.addAll(HostSeries.of(host.read(), node, legacy));
                return new MetricSnapshots(all);
            }
        });
    }

    /** A region file turned unusable for a reason of {@code kind}. */
    public void skipped(String kind) {
        skipped.labelValues(kind).inc();
    }
}
