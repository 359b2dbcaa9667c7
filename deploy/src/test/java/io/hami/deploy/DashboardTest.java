package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The Grafana dashboard of {@code deploy/kubernetes/monitoring} against the code: every query names only metrics
 * that the scheduler, the device plugins or the NVIDIA node monitor serve, every panel has a query, and the
 * dashboard covers allocation, denials, latencies, lock contention, preemption, requeueing and per-container use.
 */
class DashboardTest {
    static final Path DASHBOARD = Manifests.KUSTOMIZATION_DIR.resolve("monitoring/hami-dashboard.json");

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^{}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^\\[\\]]*]");
    private static final Pattern GROUPING =
            Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^()]*\\)");
    private static final Pattern GRAFANA_VARIABLE = Pattern.compile("\\$\\{?\\w+}?");
    /** A name not inside another word or a number, not called like a function. */
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:$])([a-zA-Z_:][a-zA-Z0-9_:]*+)(?!\\s*\\()");

    private static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "and",
            "or",
            "unless",
            "offset",
            "atan2",
            "inf",
            "nan",
            "Inf",
            "NaN");
    private static final List<String> HISTOGRAM_SERIES = List.of("_bucket", "_sum", "_count");
    private static final Pattern LABEL_VALUES = Pattern.compile("^\\s*label_values\\((.*),\\s*(\\w+)\\s*\\)\\s*$");
    private static final Pattern QUERY_RESULT = Pattern.compile("^\\s*query_result\\((.*)\\)\\s*$");

    /** One PromQL query of the dashboard and where it is. */
    record Query(String where, String expr) {}

    private static JsonNode dashboard;
    /** Served metric family (scraped name) to whether it is a histogram. */
    private static Map<String, Boolean> served;

    @BeforeAll
    static void load() throws Exception {
        dashboard = JsonMapper.builder().build().readTree(Manifests.read(DASHBOARD));
        served = new TreeMap<>();
        var all = new ArrayList<MetricSnapshot>(ServedMetrics.scheduler());
        all.addAll(ServedMetrics.plugin());
        all.addAll(ServedMetrics.monitor());
        all.forEach(m -> served.put(ServedMetrics.exposed(m), m instanceof HistogramSnapshot));
    }

    /** Every panel but rows, rows' collapsed panels included. */
    static List<JsonNode> panels(JsonNode dashboard) {
        var out = new ArrayList<JsonNode>();
        for (JsonNode panel : dashboard.path("panels")) {
            if (panel.path("type").asString().equals("row")) {
                panel.path("panels").forEach(out::add);
            } else {
                out.add(panel);
            }
        }
        return out;
    }

    /** The PromQL of every panel target and of every query variable. */
    static List<Query> queries(JsonNode dashboard) {
        var out = new ArrayList<Query>();
        for (JsonNode panel : panels(dashboard)) {
            for (JsonNode target : panel.path("targets")) {
                out.add(new Query(
                        "panel \"" + panel.path("title").asString() + "\" target "
                                + target.path("refId").asString(),
                        target.path("expr").asString()));
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (variable.path("type").asString().equals("query")) {
                JsonNode query = variable.path("query");
                String text = query.isObject() ? query.path("query").asString() : query.asString();
                out.add(new Query("variable " + variable.path("name").asString(), variableQuery(text)));
            }
        }
        return out;
    }

    /**
     * The PromQL inside a Grafana variable query: the series selector of {@code label_values(selector, label)},
     * the query of {@code query_result(query)}; a bare {@code label_values(label)} names no metric.
     */
    static String variableQuery(String text) {
        Matcher labelValues = LABEL_VALUES.matcher(text);
        if (labelValues.matches()) {
            return labelValues.group(1);
        }
        Matcher queryResult = QUERY_RESULT.matcher(text);
        if (queryResult.matches()) {
            return queryResult.group(1);
        }
        if (text.matches("^\\s*label_values\\(\\s*\\w+\\s*\\)\\s*$")) {
            return "";
        }
        throw new AssertionError("variable query not understood (label_values or query_result): " + text);
    }

    /**
     * The series names a PromQL expression selects: identifiers that are not functions, aggregations, keywords,
     * label names (inside {@code {}} or a grouping's parentheses), strings, durations or Grafana variables.
     */
    static Set<String> seriesNames(String expr) {
        String s = STRING.matcher(expr).replaceAll("\"\"");
        s = MATCHERS.matcher(s).replaceAll("{}");
        s = RANGE.matcher(s).replaceAll("[]");
        s = GROUPING.matcher(s).replaceAll(" ");
        s = GRAFANA_VARIABLE.matcher(s).replaceAll(" ");
        var out = new LinkedHashSet<String>();
        Matcher m = IDENTIFIER.matcher(s);
        while (m.find()) {
            if (!KEYWORDS.contains(m.group(1))) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** The served family a series belongs to: itself, or the histogram of a {@code _bucket/_sum/_count} series. */
    static String family(String series, Map<String, Boolean> served) {
        if (served.containsKey(series)) {
            return series;
        }
        for (String suffix : HISTOGRAM_SERIES) {
            if (series.endsWith(suffix)) {
                String base = series.substring(0, series.length() - suffix.length());
                if (Boolean.TRUE.equals(served.get(base))) {
                    return base;
                }
            }
        }
        return null;
    }

    @Test
    void seriesNamesAreTheSelectedMetricsOnly() {
        assertThat(
                        seriesNames(
                                "histogram_quantile(0.99, sum by (le, result) (rate(hami_bind_duration_seconds_bucket{node=~\"$node\", result=\"bound\"}[$__rate_interval])))"))
                .containsExactly("hami_bind_duration_seconds_bucket");
        assertThat(seriesNames("sum(rate(a_total[5m] offset 1h)) without (pod) / on (node) group_left (x) b{c=\"d\"}"))
                .containsExactly("a_total", "b");
        assertThat(seriesNames("count by (state) (max by (node, state) (hami_handshake_state)) > bool 1e3"))
                .containsExactly("hami_handshake_state");
        assertThat(seriesNames("label_replace(up, \"dst\", \"$1\", \"src\", \"(.*)\") and ignoring(job) nan_series"))
                .containsExactly("up", "nan_series");
        assertThat(seriesNames("1 - x")).containsExactly("x");
        assertThat(variableQuery("label_values(hami_gpu_memory_limit_bytes{zone=\"vGPU\"}, node)"))
                .isEqualTo("hami_gpu_memory_limit_bytes{zone=\"vGPU\"}");
        assertThat(family("hami_bind_duration_seconds_bucket", Map.of("hami_bind_duration_seconds", true)))
                .isEqualTo("hami_bind_duration_seconds");
        assertThat(family("hami_gpu_shared_count_count", Map.of("hami_gpu_shared_count", false)))
                .isNull();
    }

    @Test
    void everyQueryNamesOnlyServedMetrics() {
        var unknown = new ArrayList<String>();
        List<Query> queries = queries(dashboard);
        assertThat(queries).isNotEmpty();
        for (Query q : queries) {
            Set<String> names = seriesNames(q.expr());
            assertThat(names).as(q.where() + " names no metric: " + q.expr()).isNotEmpty();
            for (String name : names) {
                if (family(name, served) == null) {
                    unknown.add(q.where() + ": " + name);
                }
            }
        }
        assertThat(unknown)
                .as("metrics the dashboard queries that no component serves (served: %s)", served.keySet())
                .isEmpty();
    }

    @Test
    void everyPanelHasAQueryAndAUniqueTitle() {
        var titles = new HashSet<String>();
        List<JsonNode> panels = panels(dashboard);
        assertThat(panels).isNotEmpty();
        for (JsonNode panel : panels) {
            String title = panel.path("title").asString();
            assertThat(title).as("a panel's title").isNotBlank();
            assertThat(titles.add(title))
                    .as("panel title \"" + title + "\" is unique")
                    .isTrue();
            assertThat(panel.path("targets")).as("targets of \"" + title + "\"").isNotEmpty();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("expr").asString())
                        .as("expr of \"" + title + "\" " + target.path("refId").asString())
                        .isNotBlank();
            }
            assertThat(panel.path("datasource").path("uid").asString())
                    .as("data source of \"" + title + "\"")
                    .isEqualTo("${datasource}");
        }
    }

    @Test
    void theDashboardChoosesItsDataSourceAndNode() {
        var variables = new TreeMap<String, JsonNode>();
        dashboard
                .path("templating")
                .path("list")
                .forEach(v -> variables.put(v.path("name").asString(), v));
        assertThat(variables).containsKeys("datasource", "node");
        assertThat(variables.get("datasource").path("type").asString()).isEqualTo("datasource");
        assertThat(variables.get("datasource").path("query").asString()).isEqualTo("prometheus");
        assertThat(variables.get("node").path("type").asString()).isEqualTo("query");
        assertThat(variables.get("node").path("datasource").path("uid").asString())
                .isEqualTo("${datasource}");
        // Queries of per-node metrics follow the node choice.
        long perNode = queries(dashboard).stream()
                .filter(q -> q.expr().contains("node=~\"$node\""))
                .count();
        assertThat(perNode).isGreaterThan(10);
    }

    @Test
    void histogramsAreReadThroughTheirBucketsAndCountersThroughRates() {
        for (Query q : queries(dashboard)) {
            for (String name : seriesNames(q.expr())) {
                if (name.endsWith("_bucket")) {
                    assertThat(q.expr())
                            .as(q.where() + ": a quantile over " + name + " keeps le")
                            .contains("histogram_quantile(")
                            .containsPattern("by \\(le\\b");
                }
                boolean histogramCount = name.endsWith("_count") && !name.equals(family(name, served));
                if (name.endsWith("_total") || histogramCount) {
                    assertThat(q.expr())
                            .as(q.where() + ": " + name + " is a counter")
                            .containsPattern("\\b(rate|increase)\\(");
                }
            }
        }
    }

    @Test
    void theDashboardCoversEachArea() {
        var families = new TreeMap<String, List<String>>();
        for (Query q : queries(dashboard)) {
            for (String name : seriesNames(q.expr())) {
                String family = family(name, served);
                if (family != null) {
                    families.computeIfAbsent(family, k -> new ArrayList<>()).add(name);
                }
            }
        }
        Map<String, List<String>> areas = Map.ofEntries(
                Map.entry(
                        "device memory allocated per node and device",
                        List.of("hami_gpu_memory_allocated_bytes", "hami_gpu_memory_limit_bytes")),
                Map.entry(
                        "device cores allocated per node and device",
                        List.of("hami_gpu_core_allocated_ratio", "hami_gpu_core_limit_ratio")),
                Map.entry("filter denials by reason", List.of("hami_filter_denials_total")),
                Map.entry("filter latency", List.of("hami_filter_duration_seconds")),
                Map.entry("bind latency", List.of("hami_bind_duration_seconds")),
                Map.entry("Allocate latency", List.of("hami_plugin_allocate_duration_seconds")),
                Map.entry(
                        "node lock contention",
                        List.of("hami_node_lock_contention_total", "hami_node_lock_acquire_duration_seconds")),
                Map.entry("gang waits", List.of("hami_gang_lock_wait_seconds", "hami_gang_lock_contention_total")),
                Map.entry("preempt answers", List.of("hami_preempt_answers_total")),
                Map.entry("requeue nudges", List.of("hami_requeue_nudges_total")),
                Map.entry(
                        "per-container used vs limit",
                        List.of("hami_vgpu_memory_used_bytes", "hami_vgpu_memory_limit_bytes")),
                Map.entry("host GPU utilisation", List.of("hami_host_gpu_utilization_ratio")));
        areas.forEach((area, metrics) ->
                assertThat(families.keySet()).as("the dashboard's " + area).containsAll(metrics));
        for (String histogram : List.of(
                "hami_filter_duration_seconds",
                "hami_bind_duration_seconds",
                "hami_plugin_allocate_duration_seconds")) {
            assertThat(families.get(histogram)).as("quantiles of " + histogram).contains(histogram + "_bucket");
        }
    }
}
