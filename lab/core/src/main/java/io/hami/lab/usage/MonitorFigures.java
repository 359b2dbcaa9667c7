package io.hami.lab.usage;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The per-container memory figures of a node monitor's scrape: {@code hami_vgpu_memory_used_bytes} and its limit. */
final class MonitorFigures {
    static final String USED = "hami_vgpu_memory_used_bytes";
    static final String LIMIT = "hami_vgpu_memory_limit_bytes";

    private MonitorFigures() {}

    static List<ContainerUsage> of(MetricSnapshots scrape) {
        Map<Labels, Double> used = gauge(scrape, USED);
        Map<Labels, Double> limits = gauge(scrape, LIMIT);
        var out = new ArrayList<ContainerUsage>();
        used.forEach((labels, value) -> out.add(new ContainerUsage(
                labels.get("namespace") + "/" + labels.get("pod"),
                labels.get("container"),
                Integer.parseInt(labels.get("vdevice_index")),
                labels.get("device_uuid"),
                (long) (double) value,
                limits.containsKey(labels) ? (long) (double) limits.get(labels) : -1)));
        return out;
    }

    private static Map<Labels, Double> gauge(MetricSnapshots scrape, String name) {
        var out = new HashMap<Labels, Double>();
        for (MetricSnapshot m : scrape) {
            if (m instanceof GaugeSnapshot g
                    && g.getMetadata().getPrometheusName().equals(name)) {
                g.getDataPoints().forEach(p -> out.put(p.getLabels(), p.getValue()));
            }
        }
        return out;
    }
}
