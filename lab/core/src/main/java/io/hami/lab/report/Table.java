package io.hami.lab.report;

import io.hami.lab.metrics.Latencies;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A table both reports show, built once: the console prints it as aligned text, the HTML report as a table. Cells are
 * plain text (the HTML side escapes them); a number aligns right.
 */
record Table(List<String> header, List<List<String>> rows) {
    /** Beyond this many devices the allocation is shown per node, fullest first. */
    static final int MAX_DEVICE_ROWS = 64;

    private static final int MAX_NODE_ROWS = 20;
    /** Counts, shares ({@code 8000/40960 20%}) and latencies ({@code 12.3ms}). */
    private static final Pattern NUMBER = Pattern.compile("\\d[\\d.,/ %]*(µs|ms|s)?");

    /**
     * Why things went wrong, one table per kind, each message with how often it came (the empty ones too): binds and
     * filters refused, unschedulable, failed, rejected and not created pods.
     */
    static Map<String, Table> reasons(RunReport r) {
        var tables = new LinkedHashMap<String, Table>();
        tables.put(
                "Why binds and filters failed (each was retried; node-lock contention not counted)",
                counts(
                        "times",
                        "the extender's error, pod, node and times folded out",
                        r.binds().failureCauses()));
        tables.put(
                "Why pods are unschedulable",
                counts(
                        "pods",
                        "kube-scheduler's message (the extender's reasons per node)",
                        r.pods().unschedulable()));
        tables.put(
                "Why pods failed",
                counts(
                        "pods",
                        "reason and message written by the kubelet",
                        r.pods().failed()));
        tables.put(
                "Pods the webhook rejected",
                counts("pods", "the webhook's message", grouped(r.pods().rejected())));
        tables.put(
                "Pods that could not be created",
                counts("pods", "the last error", grouped(r.pods().notCreated())));
        return tables;
    }

    private static Table counts(String counted, String what, Map<String, Integer> counts) {
        return new Table(
                List.of(counted, what),
                counts.entrySet().stream()
                        .map(e -> List.of(e.getValue().toString(), e.getKey()))
                        .toList());
    }

    /** Pod name to message, as message to how many pods got it. */
    private static Map<String, Integer> grouped(Map<String, String> messages) {
        var counts = new TreeMap<String, Integer>();
        messages.values().forEach(m -> counts.merge(m, 1, Integer::sum));
        return counts;
    }

    /** The first {@code n} rows. */
    Table first(int n) {
        return rows.size() <= n ? this : new Table(header, rows.subList(0, n));
    }

    /** Filter, bind, Allocate, ...: calls and p50, p99, max. */
    static Table latency(Map<String, Latencies.Stats> latencies) {
        var rows = new ArrayList<List<String>>();
        latencies.forEach((op, s) -> rows.add(List.of(
                op,
                Integer.toString(s.count()),
                Format.latency(s.quantile(0.5)),
                Format.latency(s.quantile(0.99)),
                Format.latency(s.max()))));
        return new Table(List.of("operation", "calls", "p50", "p99", "max"), rows);
    }

    /** What {@link #allocation} lists. */
    static String allocationTitle(List<DeviceRow> devices) {
        if (devices.size() <= MAX_DEVICE_ROWS) {
            return "allocation per device at the end of the run against its capacity, and its peak during the run";
        }
        Map<String, long[]> nodes = byNode(devices);
        long used = nodes.values().stream().filter(s -> s[0] > 0).count();
        return used + " of " + nodes.size() + " nodes hold pods; the " + MAX_NODE_ROWS
                + " fullest by memory at the end of the run";
    }

    /** Every device (now / capacity, peak), or for a large cluster the fullest nodes. */
    static Table allocation(List<DeviceRow> devices) {
        if (devices.size() <= MAX_DEVICE_ROWS) {
            return new Table(
                    List.of("node", "device", "model", "memory MiB", "peak", "cores", "peak", "tasks"),
                    devices.stream()
                            .map(d -> List.of(
                                    d.device().node(),
                                    d.device().vendor().yamlName() + " #"
                                            + d.device().index(),
                                    d.device().model(),
                                    d.memory() + "/" + d.device().memory() + " "
                                            + Format.percent(
                                                    d.memory(), d.device().memory()),
                                    Format.percent(d.peakMemory(), d.device().memory()),
                                    d.cores() + "/" + d.device().cores(),
                                    Long.toString(d.peakCores()),
                                    d.device().slots() > 0
                                            ? d.tasks() + "/" + d.device().slots()
                                            : ""))
                            .toList());
        }
        return new Table(
                List.of("node", "memory MiB", "cores"),
                byNode(devices).entrySet().stream()
                        .sorted(Comparator.comparingDouble(
                                e -> -(double) e.getValue()[0] / Math.max(1, e.getValue()[1])))
                        .limit(MAX_NODE_ROWS)
                        .map(e -> List.of(
                                e.getKey(),
                                e.getValue()[0] + "/" + e.getValue()[1] + " "
                                        + Format.percent(e.getValue()[0], e.getValue()[1]),
                                e.getValue()[2] + "/" + e.getValue()[3]))
                        .toList());
    }

    /** Per node: memory allocated, memory, cores allocated, cores. */
    private static Map<String, long[]> byNode(List<DeviceRow> devices) {
        var nodes = new LinkedHashMap<String, long[]>();
        for (DeviceRow d : devices) {
            long[] sums = nodes.computeIfAbsent(d.device().node(), n -> new long[4]);
            sums[0] += d.memory();
            sums[1] += d.device().memory();
            sums[2] += d.cores();
            sums[3] += d.device().cores();
        }
        return nodes;
    }

    /** Aligned columns, every line starting with {@code indent}; a column of numbers aligns right, its header too. */
    String text(String indent) {
        int[] widths = new int[header.size()];
        boolean[] right = new boolean[header.size()];
        for (int i = 0; i < header.size(); i++) {
            int column = i;
            widths[i] = all().mapToInt(row -> row.get(column).length()).max().orElse(0);
            right[i] = !rows.isEmpty()
                    && rows.stream().allMatch(row -> row.get(column).isEmpty() || numeric(row.get(column)));
        }
        var b = new StringBuilder();
        all().forEach(row -> {
            var line = new StringBuilder(indent);
            for (int i = 0; i < row.size(); i++) {
                String pad = " ".repeat(widths[i] - row.get(i).length());
                line.append(i == 0 ? "" : "  ").append(right[i] ? pad + row.get(i) : row.get(i) + pad);
            }
            b.append(line.toString().stripTrailing()).append('\n');
        });
        return b.toString();
    }

    String html() {
        var b = new StringBuilder("<table><tr>");
        header.forEach(h -> b.append("<th>").append(Svg.escape(h)).append("</th>"));
        b.append("</tr>");
        for (List<String> row : rows) {
            b.append("<tr>");
            row.forEach(cell -> b.append(numeric(cell) ? "<td class=\"num\">" : "<td>")
                    .append(Svg.escape(cell))
                    .append("</td>"));
            b.append("</tr>");
        }
        return b.append("</table>").toString();
    }

    private Stream<List<String>> all() {
        return Stream.concat(Stream.of(header), rows.stream());
    }

    private static boolean numeric(String cell) {
        return NUMBER.matcher(cell).matches();
    }
}
