package io.hami.lab.report;

import io.hami.lab.check.Invariant;
import io.hami.lab.check.ReleaseWaits;
import io.hami.lab.fault.FaultEvent;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.observe.PodState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The run as one self-contained HTML file, {@code <scenario>-<time>.html}: verdict and key figures, the invariants,
 * pods over time with the faults marked, the latency and allocation tables (those of the console summary), the
 * containers' memory over time, and the reasons pods did not run. Charts are inline SVG; nothing is loaded from elsewhere.
 */
public final class HtmlReport {
    private static final DateTimeFormatter FILE_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter SHOWN_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);
    /** Containers' usage charts beyond this many are left out. */
    private static final int MAX_USAGE_CHARTS = 48;

    private static final int MAX_VIOLATIONS = 20;

    private static final String STYLE = """
            body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2933;margin:0;background:#f5f7fa}
            main{max-width:1000px;margin:0 auto;padding:24px 20px 48px}
            h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 10px;border-bottom:1px solid #d9e2ec;padding-bottom:4px}
            p.meta{color:#52606d;margin:2px 0}p.desc{margin:10px 0 0;max-width:820px}
            .verdict{margin:18px 0;padding:12px 16px;border-radius:6px;font-weight:600;font-size:16px}
            .ok{background:#e3f9e5;color:#1f6b35;border:1px solid #9bd8a8}.bad{background:#ffe3e3;color:#8e1b1b;border:1px solid #f29b9b}
            .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(140px,1fr));gap:10px}
            .card{background:#fff;border:1px solid #d9e2ec;border-radius:6px;padding:10px 12px}
            .card b{display:block;font-size:22px}.card span{color:#52606d;font-size:13px}
            table{border-collapse:collapse;width:100%;background:#fff;font-size:13px}
            th,td{border:1px solid #d9e2ec;padding:5px 8px;text-align:left;vertical-align:top}th{background:#eef2f5}
            td.num{text-align:right;font-variant-numeric:tabular-nums}
            .pass{color:#1f6b35;font-weight:600}.fail{color:#8e1b1b;font-weight:600}
            .chart{background:#fff;border:1px solid #d9e2ec;border-radius:6px;padding:10px;margin:8px 0;overflow-x:auto}
            .usage{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:10px}
            .legend span{display:inline-block;margin-right:14px;font-size:13px}.legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:-1px}
            ol.faults{font-size:13px;margin:6px 0 0;padding-left:22px}ul.v{margin:4px 0 0;padding-left:18px;font-size:12px}
            """;

    private HtmlReport() {}

    /** Writes the report into {@code dir} and returns its path. */
    public static Path write(RunReport r, Path dir) throws IOException {
        Files.createDirectories(dir);
        Path file =
                dir.resolve(r.run().scenario() + "-" + FILE_TIME.format(r.run().startedAt()) + ".html");
        Files.writeString(file, render(r));
        return file;
    }

    static String render(RunReport r) {
        var h = new StringBuilder();
        h.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>hami lab: ")
                .append(esc(r.run().scenario()))
                .append("</title><style>")
                .append(STYLE)
                .append("</style></head><body><main>");
        header(h, r);
        cards(h, r);
        invariants(h, r.invariants());
        pods(h, r);
        latency(h, r.binds().latencies(), r.run().latencySource());
        allocation(h, r.devices());
        usage(h, r.usage());
        reasons(h, r);
        h.append("</main></body></html>\n");
        return h.toString();
    }

    private static void header(StringBuilder h, RunReport r) {
        h.append("<h1>hami lab: ").append(esc(r.run().scenario())).append("</h1>");
        h.append("<p class=\"meta\">started ")
                .append(SHOWN_TIME.format(r.run().startedAt()))
                .append(" · seed ")
                .append(r.run().seed())
                .append(" · cluster up in ")
                .append(Format.seconds(r.run().setup()))
                .append(" · workload ran ")
                .append(Format.seconds(r.run().took()))
                .append(" · nodes: ");
        h.append(String.join(
                ", ",
                r.run().nodes().entrySet().stream()
                        .filter(e -> e.getValue() > 0)
                        .map(e -> e.getValue() + " " + e.getKey())
                        .toList()));
        h.append(" · ").append(r.devices().size()).append(" devices</p>");
        h.append("<p class=\"meta\">control plane: ")
                .append(esc(r.run().controlPlane()))
                .append("</p>");
        if (!r.run().description().isEmpty()) {
            h.append("<p class=\"desc\">").append(esc(r.run().description())).append("</p>");
        }
        long broken = r.invariants().stream().filter(i -> !i.holds()).count();
        h.append("<div class=\"verdict ")
                .append(
                        broken == 0
                                ? "ok\">All " + r.invariants().size() + " invariants hold"
                                : "bad\">" + broken + " of " + r.invariants().size() + " invariants violated")
                .append("</div>");
    }

    private static void cards(StringBuilder h, RunReport r) {
        h.append("<div class=\"cards\">");
        card(h, Integer.toString(r.pods().planned()), "pods planned");
        card(h, Integer.toString(r.count(PodState.RUNNING)), "running at the end");
        card(h, Integer.toString(r.count(PodState.SUCCEEDED)), "finished (devices freed)");
        card(h, Integer.toString(r.count(PodState.UNSCHEDULABLE)), "unschedulable");
        card(h, Integer.toString(r.count(PodState.FAILED)), "failed");
        card(h, Integer.toString(r.pods().rejected().size()), "rejected by the webhook");
        card(h, String.format(Locale.ROOT, "%.1f", r.binds().podsPerSecond()), "pods bound per second");
        Latencies.Stats bind = r.binds().latencies().getOrDefault(Latencies.BIND, Latencies.Stats.EMPTY);
        card(h, Format.latency(bind.quantile(0.99)), "bind p99");
        Latencies.Stats allocate = r.binds().latencies().get(Latencies.ALLOCATE);
        if (allocate != null) {
            card(h, Format.latency(allocate.quantile(0.99)), "Allocate p99");
        }
        ReleaseWaits waits = r.binds().releaseWaits();
        if (waits.pods() > 0) {
            card(
                    h,
                    Format.latency(waits.median()) + " / " + Format.latency(waits.max()),
                    "waited after a release, median / max (" + waits.pods() + " pods)");
        }
        h.append("</div>");
    }

    private static void card(StringBuilder h, String value, String label) {
        h.append("<div class=\"card\"><b>")
                .append(esc(value))
                .append("</b><span>")
                .append(esc(label))
                .append("</span></div>");
    }

    private static void invariants(StringBuilder h, List<Invariant> invariants) {
        h.append(
                "<h2>Invariants</h2><table><tr><th>check</th><th>what must hold</th><th>checked</th><th>result</th></tr>");
        for (Invariant i : invariants) {
            h.append("<tr><td>").append(esc(i.name())).append("</td><td>").append(esc(i.statement()));
            if (!i.holds()) {
                h.append("<ul class=\"v\">");
                i.violations().stream()
                        .limit(MAX_VIOLATIONS)
                        .forEach(v -> h.append("<li>").append(esc(v)).append("</li>"));
                if (i.violations().size() > MAX_VIOLATIONS) {
                    h.append("<li>… ")
                            .append(i.violations().size() - MAX_VIOLATIONS)
                            .append(" more</li>");
                }
                h.append("</ul>");
            }
            h.append("</td><td class=\"num\">")
                    .append(i.checked())
                    .append("</td><td class=\"")
                    .append(
                            i.holds()
                                    ? "pass\">holds"
                                    : "fail\">" + i.violations().size() + " violation(s)")
                    .append("</td></tr>");
        }
        h.append("</table>");
    }

    private static void pods(StringBuilder h, RunReport r) {
        h.append("<h2>Pods over time</h2><div class=\"chart\">")
                .append(Charts.podsOverTime(r.samples(), r.chaos().faults()));
        h.append("<div class=\"legend\">");
        for (PodState s : Charts.STACK.reversed()) {
            h.append("<span><i style=\"background:")
                    .append(Charts.COLORS.get(s))
                    .append("\"></i>")
                    .append(s.label())
                    .append("</span>");
        }
        h.append("</div>");
        if (!r.chaos().faults().isEmpty()) {
            h.append("<ol class=\"faults\">");
            for (FaultEvent f : r.chaos().faults()) {
                h.append("<li>")
                        .append(Format.seconds(f.at()))
                        .append(": ")
                        .append(f.failed() ? "<b>failed:</b> " : "")
                        .append(esc(f.what()))
                        .append("</li>");
            }
            h.append("</ol>");
        }
        h.append("</div>");
    }

    private static void latency(StringBuilder h, Map<String, Latencies.Stats> latencies, String source) {
        h.append("<h2>Latency</h2><p class=\"meta\">")
                .append(esc(source))
                .append("</p>")
                .append(Table.latency(latencies).html());
    }

    private static void allocation(StringBuilder h, List<DeviceRow> devices) {
        h.append("<h2>Allocation per node</h2><p class=\"meta\">")
                .append(esc(Table.allocationTitle(devices)))
                .append(".</p>")
                .append(Table.allocation(devices).html());
    }

    /** Per container with a workload and per GPU: its memory over time, as its node monitor reported it. */
    private static void usage(StringBuilder h, RunReport.Usage usage) {
        if (usage.series().isEmpty()) {
            return;
        }
        h.append("<h2>Container usage</h2><p class=\"meta\">Memory in use per container and GPU as the node monitors ")
                .append("(one per node with NVIDIA devices, ")
                .append(usage.monitors())
                .append(
                        ") reported it, sampled every second, against the container's limit (dashed red). A region stays ")
                .append("until its pod is deleted, so after a pod ends its last figures are still reported. The ")
                .append("containers run hami-workload with the scenario's usage profile, writing HAMi-core's shared ")
                .append("region. First ")
                .append(Math.min(usage.series().size(), MAX_USAGE_CHARTS))
                .append(" of ")
                .append(usage.series().size())
                .append(".</p><div class=\"usage\">");
        usage.series().stream()
                .limit(MAX_USAGE_CHARTS)
                .forEach(s -> h.append("<div class=\"chart\">")
                        .append(Charts.usage(s))
                        .append("</div>"));
        h.append("</div>");
        if (!usage.scrapeExcerpt().isEmpty()) {
            h.append("<p class=\"meta\">A node monitor's <code>/metrics</code> at the end, one container's series:</p>")
                    .append("<pre class=\"chart\">")
                    .append(esc(String.join("\n", usage.scrapeExcerpt())))
                    .append("</pre>");
        }
    }

    private static void reasons(StringBuilder h, RunReport r) {
        Table.reasons(r).forEach((title, table) -> {
            if (!table.rows().isEmpty()) {
                h.append("<h2>").append(esc(title)).append("</h2>").append(table.html());
            }
        });
    }

    private static String esc(String s) {
        return Svg.escape(s == null ? "" : s);
    }
}
