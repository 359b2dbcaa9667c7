package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.DataPointSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Prometheus keeps {@code _ratio} for values from 0 to 1, so an alert written as {@code > 0.9} means 90%. Upstream
 * HAMi serves six {@code _ratio} names that hold 0-100; we serve them unchanged (its dashboards and alerts read them)
 * and document the range. Any other {@code _ratio} metric of ours must hold 0-1: this fails on a new one that does not,
 * and on a doc row that gives a range other than the served one.
 */
class RatioMetricsTest {
    private static final Path DOC = DockerfilesTest.REPOSITORY.resolve("docs/operators.md");

    /** Upstream's percent-valued names: cmd/scheduler/metrics.go (cores) and cmd/vGPUmonitor/metrics.go (percent). */
    static final Set<String> UPSTREAM_PERCENT = Set.of(
            "hami_gpu_core_limit_ratio",
            "hami_gpu_core_allocated_ratio",
            "hami_vgpu_core_allocated_ratio",
            "hami_container_device_utilization_ratio",
            "hami_host_gpu_utilization_ratio",
            "hami_host_gpu_memory_controller_utilization_ratio");

    @Test
    void everyRatioOfOursHoldsZeroToOneAndTheDocsSayWhichRangeEachHolds() throws Exception {
        var served = new ArrayList<MetricSnapshot>(ServedMetrics.scheduler());
        served.addAll(ServedMetrics.plugin());
        served.addAll(ServedMetrics.monitor());
        List<String> doc = Files.readAllLines(DOC);
        var ratios = new TreeSet<String>();
        int checked = 0;
        for (MetricSnapshot metric : served) {
            String name = ServedMetrics.exposed(metric);
            if (!name.endsWith("_ratio")) {
                continue;
            }
            ratios.add(name);
            String range = documentedRange(doc, name);
            if (UPSTREAM_PERCENT.contains(name)) {
                assertThat(range).as("%s: upstream's name, 0-100", name).isEqualTo("0-100");
                continue;
            }
            assertThat(range).as("%s: a _ratio of ours holds 0-1", name).isEqualTo("0-1");
            assertThat(metric).as(name).isInstanceOf(GaugeSnapshot.class);
            for (DataPointSnapshot point : metric.getDataPoints()) {
                double value = ((GaugeSnapshot.GaugeDataPointSnapshot) point).getValue();
                assertThat(value).as("%s%s", name, point.getLabels()).isBetween(0.0, 1.0);
                checked++;
            }
        }
        assertThat(ratios).as("upstream's percent names are all still served").containsAll(UPSTREAM_PERCENT);
        assertThat(checked).as("samples of our own _ratio metrics looked at").isPositive();
    }

    /** "0-100" or "0-1", from the metric's row of a table in the doc (its value column). */
    private static String documentedRange(List<String> doc, String name) {
        String row = doc.stream()
                .filter(l -> l.startsWith("| `" + name + "` |"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " has no row in docs/operators.md"));
        String[] cells = row.split("\\|");
        String value = cells[cells.length - 1].isBlank() ? cells[cells.length - 2] : cells[cells.length - 1];
        boolean percent = value.contains("0-100");
        boolean unit = value.matches(".*\\b0-1\\b(?!0).*");
        assertThat(percent ^ unit)
                .as("%s: the row names one range, 0-100 or 0-1: %s", name, row)
                .isTrue();
        return percent ? "0-100" : "0-1";
    }
}
