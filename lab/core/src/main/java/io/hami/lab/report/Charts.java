package io.hami.lab.report;

import io.hami.lab.fault.FaultEvent;
import io.hami.lab.observe.PodState;
import io.hami.lab.observe.Sample;
import io.hami.lab.usage.ContainerUsage;
import io.hami.lab.usage.UsageSeries;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The report's two charts, each an inline SVG: pods over time and a container's memory over time; the rest are tables. */
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
}
