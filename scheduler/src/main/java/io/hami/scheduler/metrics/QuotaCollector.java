package io.hami.scheduler.metrics;

import io.hami.scheduler.quota.QuotaBook;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;

/**
 * Upstream's quota gauges (docs/upstream.md#metrics): per namespace and limited device resource, what its pods
 * hold and the limit, in the resource's units, read from the quota book and the usage index at scrape time.
 */
final class QuotaCollector implements MultiCollector {
    static final String USED = "hami_resource_quota_used";
    static final String LIMIT = "hami_resource_quota_limit";

    private final QuotaBook quotas;

    QuotaCollector(QuotaBook quotas) {
        this.quotas = quotas;
    }

    @Override
    public MetricSnapshots collect() {
        var used = GaugeSnapshot.builder().name(USED).help("Resource quota used by the pods of a namespace");
        var limit = GaugeSnapshot.builder().name(LIMIT).help("Resource quota limit of a namespace");
        for (QuotaBook.Line line : quotas.lines()) {
            Labels labels = Labels.of(
                    "namespace", line.namespace(), "quota_name", line.resource(), "zone", DeviceUsageCollector.ZONE);
            used.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .labels(labels.add("limit", Long.toString(line.limit())))
                    .value((double) line.used())
                    .build());
            limit.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder()
                    .labels(labels)
                    .value((double) line.limit())
                    .build());
        }
        return new MetricSnapshots(used.build(), limit.build());
    }

    @Override
    public List<String> getPrometheusNames() {
        return List.of(USED, LIMIT);
    }
}
