package io.hami.lab.report;

import io.hami.lab.check.DeviceAccounting;
import io.hami.lab.fault.FaultEvent;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.observe.PodState;
import io.hami.lab.observe.Sample;
import io.hami.lab.usage.ContainerUsage;
import io.hami.lab.usage.UsageSeries;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The report's charts, each an inline SVG. */
final class Charts {
    /** Bottom to top in the stacked chart; finished pods at the bottom, problems on top. */
    static final List<PodState> STACK = List.of(
            PodState.SUCCEEDED,
            PodState.RUNNING,
            PodState.ALLOCATING,
            PodState.PENDING,
            PodState.UNSCHEDULABLE,
            PodState.FAILED);

    static final Map<PodState, String> COLORS = new EnumMap<>(Map.of(
            PodState.SUCCEEDED,
            "#9aa5b1",
            PodState.RUNNING,
            "#3f9c5a",
            PodState.ALLOCATING,
            "#4aa3df",
            PodState.PENDING,
            "#f0b429",
            PodState.UNSCHEDULABLE,
            "#e4572e",
            PodState.FAILED,
            "#8e1b1b"));
    static final List<Duration> LATENCY_BOUNDS = List.of(
            Duration.ofNanos(100_000),
            Duration.ofNanos(200_000),
            Duration.ofNanos(500_000),
            Duration.ofMillis(1),
            Duration.ofMillis(2),
            Duration.ofMillis(5),
            Duration.ofMillis(10),
            Duration.ofMillis(20),
            Duration.ofMillis(50),
            Duration.ofMillis(100),
            Duration.ofMillis(200),
            Duration.ofMillis(500),
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(5));

    private static final String AXIS = "#52606d";
    private static final String GRID = "#e4e7eb";

    private Charts() {}

    /** Pods per state over time, stacked, with a dashed line and a number at each fault. */
    static String podsOverTime(List<Sample> samples, List<FaultEvent> faults) {
        int w = 960, h = 310, left = 48, right = 16, top = 30, bottom = 36;
        var svg = new Svg(w, h, "pods per state over time");
        if (samples.isEmpty()) {
            return svg.text(w / 2.0, h / 2.0, "no samples", "middle", 14, AXIS).end();
        }
        double maxT = samples.getLast().at().toMillis() / 1000.0;
        int maxPods = samples.stream()
                .mapToInt(s ->
                        s.pods().values().stream().mapToInt(Integer::intValue).sum())
                .max()
                .orElse(1);
        double yMax = niceCeiling(Math.max(maxPods, 1));
        double plotW = w - left - right, plotH = h - top - bottom;
        axes(svg, left, top, plotW, plotH, maxT, yMax, "s", "pods");
        int n = samples.size();
        double[] lower = new double[n];
        for (PodState state : STACK) {
            double[] upper = new double[n];
            for (int i = 0; i < n; i++) {
                upper[i] = lower[i] + samples.get(i).count(state);
            }
            double[] xs = new double[2 * n];
            double[] ys = new double[2 * n];
            for (int i = 0; i < n; i++) {
                double x = left + plotW * (samples.get(i).at().toMillis() / 1000.0) / Math.max(maxT, 1e-9);
                xs[i] = x;
                ys[i] = top + plotH * (1 - upper[i] / yMax);
                xs[2 * n - 1 - i] = x;
                ys[2 * n - 1 - i] = top + plotH * (1 - lower[i] / yMax);
            }
            svg.polygon(xs, ys, COLORS.get(state), state.label());
            lower = upper;
        }
        for (int i = 0; i < faults.size(); i++) {
            double x = left + plotW * Math.min(faults.get(i).at().toMillis() / 1000.0, maxT) / Math.max(maxT, 1e-9);
            svg.line(x, top, x, top + plotH, "#1f2933", 1, true);
            svg.text(x + 3, top + 12 + (i % 3) * 12, Integer.toString(i + 1), "start", 11, "#1f2933");
        }
        return svg.end();
    }

    /** A histogram of one operation's latency over logarithmic buckets, with p50 and p99 written on it. */
    static String latency(String operation, Latencies.Stats stats) {
        int w = 290, h = 236, left = 36, right = 8, top = 44, bottom = 48;
        var svg = new Svg(w, h, operation + " latency histogram");
        svg.text(left, 16, operation + ": " + stats.count() + " calls", "start", 12, "#1f2933");
        svg.text(
                left,
                32,
                "p50 " + Format.latency(stats.quantile(0.5)) + " · p99 " + Format.latency(stats.quantile(0.99)),
                "start",
                12,
                "#1f2933");
        int[] counts = stats.histogram(LATENCY_BOUNDS);
        int max = 1;
        for (int c : counts) {
            max = Math.max(max, c);
        }
        double plotW = w - left - right, plotH = h - top - bottom;
        double bar = plotW / counts.length;
        svg.line(left, top + plotH, left + plotW, top + plotH, AXIS, 1, false);
        svg.text(left - 4, top + 8, Integer.toString(max), "end", 10, AXIS);
        for (int i = 0; i < counts.length; i++) {
            double bh = plotH * counts[i] / max;
            String range = (i == 0 ? "< " : Format.latency(LATENCY_BOUNDS.get(i - 1)) + " – ")
                    + (i < LATENCY_BOUNDS.size() ? Format.latency(LATENCY_BOUNDS.get(i)) : "more");
            svg.rect(left + i * bar + 1, top + plotH - bh, bar - 2, bh, "#4aa3df", range + ": " + counts[i] + " calls");
            if (i % 3 == 0 && i < LATENCY_BOUNDS.size()) {
                double x = left + (i + 1) * bar;
                svg.line(x, top + plotH, x, top + plotH + 4, AXIS, 1, false);
                svg.text(x, top + plotH + 16, Format.latency(LATENCY_BOUNDS.get(i)), "middle", 9, AXIS);
            }
        }
        marker(svg, stats.quantile(0.5), "p50", left, bar, top, plotH, "#3f9c5a");
        marker(svg, stats.quantile(0.99), "p99", left, bar, top, plotH, "#e4572e");
        svg.text(left + plotW / 2, h - 6, "latency (log buckets)", "middle", 10, AXIS);
        return svg.end();
    }

    private static void marker(
            Svg svg, Duration value, String label, double left, double bar, double top, double plotH, String color) {
        if (value.isZero()) {
            return;
        }
        int bucket = 0;
        while (bucket < LATENCY_BOUNDS.size() && value.compareTo(LATENCY_BOUNDS.get(bucket)) >= 0) {
            bucket++;
        }
        double lo = bucket == 0 ? 0 : Math.log(LATENCY_BOUNDS.get(bucket - 1).toNanos());
        double hi = bucket < LATENCY_BOUNDS.size()
                ? Math.log(LATENCY_BOUNDS.get(bucket).toNanos())
                : lo + 1;
        double within = bucket == 0 ? 0.5 : Math.clamp((Math.log(value.toNanos()) - lo) / (hi - lo), 0, 1);
        double x = left + (bucket + within) * bar;
        svg.line(x, top, x, top + plotH, color, 1.5, true);
        svg.text(x + 2, top + 10 + (label.equals("p99") ? 12 : 0), label, "start", 10, color);
    }

    /**
     * One node's devices: per device a memory bar and a cores bar, each filled to what is allocated at the end,
     * with a tick at the peak.
     */
    static String node(String node, List<DeviceRow> rows) {
        int rowH = 34, top = 22, labelW = 150, barW = 150, gap = 16;
        int w = labelW + 2 * barW + gap + 12, h = top + rows.size() * rowH + 6;
        var svg = new Svg(w, h, "allocation on " + node);
        svg.text(0, 14, node, "start", 13, "#1f2933");
        svg.text(labelW, 14, "memory", "start", 10, AXIS);
        svg.text(labelW + barW + gap, 14, "cores", "start", 10, AXIS);
        for (int i = 0; i < rows.size(); i++) {
            DeviceRow d = rows.get(i);
            double y = top + i * rowH;
            svg.text(
                    0,
                    y + 13,
                    d.device().vendor().yamlName() + " #" + d.device().index(),
                    "start",
                    11,
                    "#1f2933");
            svg.text(0, y + 26, shorten(d.device().model(), 24), "start", 9, AXIS);
            bar(
                    svg,
                    labelW,
                    y + 4,
                    barW,
                    d.memory(),
                    d.peakMemory(),
                    d.device().memory(),
                    d.device().id() + ": " + d.memory() + " of " + d.device().memory() + " MiB (peak " + d.peakMemory()
                            + ")",
                    d.memory() + "/" + d.device().memory() + " MiB");
            bar(
                    svg,
                    labelW + barW + gap,
                    y + 4,
                    barW,
                    d.cores(),
                    d.peakCores(),
                    d.device().cores(),
                    d.device().id() + ": " + d.cores() + " of " + d.device().cores() + " cores (peak " + d.peakCores()
                            + ")",
                    d.cores() + "/" + d.device().cores()
                            + (d.device().slots() > 0
                                    ? " · " + d.tasks() + "/" + d.device().slots() + " tasks"
                                    : ""));
        }
        return svg.end();
    }

    private static void bar(
            Svg svg, double x, double y, double w, long used, long peak, long capacity, String title, String label) {
        double frac = capacity == 0 ? 0 : Math.min(1.0, (double) used / capacity);
        double peakFrac = capacity == 0 ? 0 : Math.min(1.0, (double) peak / capacity);
        String fill = used > capacity ? "#8e1b1b" : frac > 0.9 ? "#e4572e" : "#3f9c5a";
        svg.rect(x, y, w, 14, "#eef2f5", title);
        svg.rect(x, y, w * frac, 14, fill, title);
        svg.outline(x, y, w, 14, "#cbd2d9");
        if (peak > used) {
            svg.line(x + w * peakFrac, y - 2, x + w * peakFrac, y + 16, "#1f2933", 2, false);
        }
        svg.text(x, y + 25, label, "start", 9, AXIS);
    }

    /** How full the nodes are, by memory: number of nodes per 10 % band (for clusters too large to draw per device). */
    static String nodeFill(List<DeviceRow> rows) {
        var byNode = new LinkedHashMap<String, long[]>();
        for (DeviceRow d : rows) {
            long[] s = byNode.computeIfAbsent(d.device().node(), n -> new long[2]);
            s[0] += d.memory();
            s[1] += d.device().memory();
        }
        int[] bands = new int[11];
        byNode.values().forEach(s -> bands[(int) Math.min(10, s[1] == 0 ? 0 : 10 * s[0] / s[1])]++);
        int w = 620, h = 240, left = 48, top = 16, bottom = 40;
        double plotW = w - left - 16, plotH = h - top - bottom;
        int max = 1;
        for (int b : bands) {
            max = Math.max(max, b);
        }
        var svg = new Svg(w, h, "nodes by memory allocated");
        svg.line(left, top + plotH, left + plotW, top + plotH, AXIS, 1, false);
        svg.text(left - 4, top + 8, Integer.toString(max), "end", 10, AXIS);
        double bar = plotW / bands.length;
        for (int i = 0; i < bands.length; i++) {
            double bh = plotH * bands[i] / max;
            String range = i == 10 ? "100%" : (i * 10) + "–" + (i * 10 + 10) + "%";
            svg.rect(left + i * bar + 2, top + plotH - bh, bar - 4, bh, "#4aa3df", range + ": " + bands[i] + " nodes");
            svg.text(left + i * bar + bar / 2, top + plotH + 14, range, "middle", 9, AXIS);
            if (bands[i] > 0) {
                svg.text(
                        left + i * bar + bar / 2,
                        top + plotH - bh - 3,
                        Integer.toString(bands[i]),
                        "middle",
                        9,
                        "#1f2933");
            }
        }
        svg.text(left + plotW / 2, h - 6, "memory allocated on the node", "middle", 10, AXIS);
        return svg.end();
    }

    /** Each device's memory allocation over time: one row per device, darker is fuller. */
    static String heatmap(List<DeviceRow> rows, List<Sample> samples) {
        int rowH = 10, labelW = 230, w = 960, top = 8, bottom = 24;
        int h = top + rows.size() * rowH + bottom;
        var svg = new Svg(w, h, "device memory allocated over time");
        if (samples.isEmpty()) {
            return svg.end();
        }
        double plotW = w - labelW - 8;
        double cell = plotW / samples.size();
        String node = null;
        for (int r = 0; r < rows.size(); r++) {
            DeviceRow d = rows.get(r);
            double y = top + r * rowH;
            String label = (d.device().node().equals(node) ? "" : d.device().node() + " ")
                    + d.device().vendor().yamlName() + " #" + d.device().index();
            if (!d.device().node().equals(node)) {
                svg.line(0, y, w, y, GRID, 1, false);
            }
            node = d.device().node();
            svg.text(labelW - 6, y + rowH - 1, label, "end", 9, AXIS);
            var key =
                    new DeviceAccounting.DeviceKey(d.device().node(), d.device().id());
            for (int i = 0; i < samples.size(); i++) {
                DeviceAccounting.Usage u = samples.get(i).devices().get(key);
                double frac = u == null || d.device().memory() == 0
                        ? 0
                        : Math.min(1, (double) u.memory() / d.device().memory());
                if (frac > 0) {
                    svg.rect(labelW + i * cell, y + 1, cell + 0.3, rowH - 2, blue(frac), null);
                }
            }
        }
        double maxT = samples.getLast().at().toMillis() / 1000.0;
        for (int tick = 0; tick <= 4; tick++) {
            double x = labelW + plotW * tick / 4;
            svg.text(x, h - 8, String.format(Locale.ROOT, "%.0fs", maxT * tick / 4), "middle", 10, AXIS);
        }
        return svg.end();
    }

    /** One container's memory on one GPU over time (its monitor's samples) against its limit, in MiB. */
    static String usage(UsageSeries series) {
        // top leaves room for the two title lines and, under them, the y axis' unit above its top tick.
        int w = 330, h = 164, left = 46, right = 10, top = 48, bottom = 24;
        ContainerUsage u = series.usage();
        var svg = new Svg(w, h, "memory of " + u.pod() + " " + u.container() + " over time");
        svg.text(
                left - 40,
                14,
                shorten(u.pod() + " · " + u.container() + " · GPU " + u.device(), 52),
                "start",
                11,
                "#1f2933");
        svg.text(left - 40, 27, shorten(series.profile(), 60), "start", 10, AXIS);
        List<UsageSeries.Point> points = series.points();
        double limit = u.limitBytes() / MIB;
        double peak = series.peakBytes() / MIB;
        double maxT = points.isEmpty() ? 1 : Math.max(points.getLast().at().toMillis() / 1000.0, 1);
        double yMax = niceCeiling(Math.max(Math.max(limit, peak) * 1.05, 1));
        double plotW = w - left - right, plotH = h - top - bottom;
        axes(svg, left, top, plotW, plotH, maxT, yMax, "s", "MiB");
        double yLimit = top + plotH * (1 - limit / yMax);
        svg.line(left, yLimit, left + plotW, yLimit, "#d64545", 1.5, true);
        for (int i = 1; i < points.size(); i++) {
            UsageSeries.Point a = points.get(i - 1), b = points.get(i);
            svg.line(
                    left + plotW * a.at().toMillis() / 1000.0 / maxT,
                    top + plotH * (1 - a.usedBytes() / MIB / yMax),
                    left + plotW * b.at().toMillis() / 1000.0 / maxT,
                    top + plotH * (1 - b.usedBytes() / MIB / yMax),
                    "#2680c2",
                    2,
                    false);
        }
        return svg.end();
    }

    private static final double MIB = 1024.0 * 1024.0;

    private static String blue(double frac) {
        int r = (int) (235 - 205 * frac), g = (int) (244 - 150 * frac), b = (int) (250 - 60 * frac);
        return String.format(Locale.ROOT, "rgb(%d,%d,%d)", r, g, b);
    }

    private static void axes(
            Svg svg,
            double left,
            double top,
            double plotW,
            double plotH,
            double maxX,
            double maxY,
            String xUnit,
            String yLabel) {
        for (int i = 0; i <= 4; i++) {
            double y = top + plotH * i / 4;
            svg.line(left, y, left + plotW, y, GRID, 1, false);
            svg.text(left - 6, y + 4, String.format(Locale.ROOT, "%.0f", maxY * (4 - i) / 4), "end", 10, AXIS);
        }
        for (int i = 0; i <= 6; i++) {
            double x = left + plotW * i / 6;
            // The last label ends at the axis' end instead of centring on it: centred, it ran past the chart's edge.
            svg.text(
                    x,
                    top + plotH + 16,
                    String.format(Locale.ROOT, "%.0f%s", maxX * i / 6, xUnit),
                    i == 6 ? "end" : "middle",
                    10,
                    AXIS);
        }
        svg.line(left, top + plotH, left + plotW, top + plotH, AXIS, 1, false);
        // The unit sits just above the top tick's value, below whatever the chart has above its plot.
        svg.text(left - 6, top - 8, yLabel, "end", 10, AXIS);
    }

    private static double niceCeiling(double v) {
        double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
        for (double step : new double[] {1, 1.2, 1.6, 2, 2.4, 3, 4, 5, 6, 8, 10}) {
            if (step * magnitude >= v) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String shorten(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 1) + "…";
    }

    /** Groups device rows by node, in order. */
    static Map<String, List<DeviceRow>> byNode(List<DeviceRow> rows) {
        var out = new LinkedHashMap<String, List<DeviceRow>>();
        rows.forEach(r ->
                out.computeIfAbsent(r.device().node(), n -> new ArrayList<>()).add(r));
        return out;
    }
}
