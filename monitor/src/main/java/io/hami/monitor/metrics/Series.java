package io.hami.monitor.metrics;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import java.util.ArrayList;
import java.util.List;

/** One gauge family being filled: its metadata and its points. */
final class Series {
    private final MetricMetadata metadata;
    private final List<GaugeDataPointSnapshot> points = new ArrayList<>();

    Series(String name, String help) {
        this.metadata = new MetricMetadata(name, help);
    }

    void add(double value, Labels labels) {
        points.add(new GaugeDataPointSnapshot(value, labels, null));
    }

    GaugeSnapshot snapshot() {
        return new GaugeSnapshot(metadata, points);
    }
}
