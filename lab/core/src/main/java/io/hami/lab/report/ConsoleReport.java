package io.hami.lab.report;

import io.hami.lab.check.Invariant;
import io.hami.lab.fault.FaultEvent;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.observe.PodState;
import io.hami.lab.usage.UsageSeries;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The summary printed when a run ends. */
public final class ConsoleReport {
    private static final int MAX_REASONS = 8;
    private static final int MAX_VIOLATIONS = 10;

    private ConsoleReport() {}

    /** The scale scenario's throughput goal (issue 11: 1,000 nodes × 8 GPUs), and the run's ratio to it. */
    static final double SCALE_GOAL_PODS_PER_SECOND = 300;

    private static String throughputGoal(RunReport r) {
        return r.run().scenario().equals("scale")
                ? String.format(
                        Locale.ROOT,
                        " (%.2f of the goal of %.0f pods/s)",
                        r.binds().podsPerSecond() / SCALE_GOAL_PODS_PER_SECOND,
                        SCALE_GOAL_PODS_PER_SECOND)
                : "";
    }

    /** One line on the containers' usage as the node monitors reported it; null when no container had a profile. */
    static String usageLine(RunReport.Usage usage) {
        if (usage.series().isEmpty()) {
            return null;
        }
        UsageSeries top = usage.series().stream()
                .max(java.util.Comparator.comparingDouble(
                        s -> (double) s.peakBytes() / Math.max(1, s.usage().limitBytes())))
                .orElseThrow();
        long containers = usage.series().stream()
                .map(s -> s.usage().pod() + "/" + s.usage().container())
                .distinct()
                .count();
        long over = usage.series().stream()
                .filter(s -> s.peakBytes() > s.usage().limitBytes())
                .count();
        return String.format(
                Locale.ROOT,
                "usage (node monitors): %d containers with workloads, %d GPU series from %d monitors; highest"
                        + " %s %s: peak %,d of %,d MiB; %d above their limit (allowed: %d)",
                containers,
                usage.series().size(),
                usage.monitors(),
                top.usage().pod(),
                top.usage().container(),
                top.peakBytes() >> 20,
                top.usage().limitBytes() >> 20,
                over,
                usage.series().stream().filter(UsageSeries::overLimit).count());
    }

    public static void print(RunReport r, PrintStream out) {
        out.println();
        out.println("== " + r.run().scenario() + ": summary ==");
        out.println("control plane: " + r.run().controlPlane());
        out.printf(
                Locale.ROOT,
                "pods: %d planned, %d submitted: %d running, %d succeeded, %d failed, %d unschedulable, %d pending,"
                        + " %d allocating; %d rejected by the webhook%s%n",
                r.pods().planned(),
                r.pods().states().values().stream().mapToInt(Integer::intValue).sum()
                        + r.pods().rejected().size(),
                r.count(PodState.RUNNING),
                r.count(PodState.SUCCEEDED),
                r.count(PodState.FAILED),
                r.count(PodState.UNSCHEDULABLE),
                r.count(PodState.PENDING),
                r.count(PodState.ALLOCATING),
                r.pods().rejected().size(),
                r.pods().notCreated().isEmpty()
                        ? ""
                        : "; " + r.pods().notCreated().size() + " could not be created");
        out.printf(
                Locale.ROOT,
                "scheduling: %.1f pods/s bound%s; binds retried: %d for node-lock contention, %d for other errors;"
                        + " %d API writes failed on purpose%n",
                r.binds().podsPerSecond(),
                throughputGoal(r),
                r.binds().contentions(),
                r.binds().retries(),
                r.chaos().apiErrors());
        if (r.binds().releaseWaits().pods() > 0) {
            out.println("waited after a release of the devices they got, until bound: "
                    + r.binds().releaseWaits().describe());
        }
        String usage = usageLine(r.usage());
        if (usage != null) {
            out.println(usage);
        }
        Table.reasons(r).forEach((title, table) -> {
            if (!table.rows().isEmpty()) {
                out.println(title + ":");
                out.print(table.first(MAX_REASONS).text("  "));
                if (table.rows().size() > MAX_REASONS) {
                    out.println("  ... " + (table.rows().size() - MAX_REASONS) + " more");
                }
            }
        });
        allocation(out, r.devices());
        latencies(out, r.binds().latencies(), r.run().latencySource());
        if (!r.chaos().faults().isEmpty()) {
            out.println("faults:");
            for (FaultEvent f : r.chaos().faults()) {
                out.println("  " + Format.seconds(f.at()) + "  " + (f.failed() ? "FAILED: " : "") + f.what());
            }
        }
        out.println("invariants:");
        for (Invariant i : r.invariants()) {
            out.printf(
                    Locale.ROOT,
                    "  %s %-12s %s (%d checked)%n",
                    i.holds() ? "ok  " : "FAIL",
                    i.name(),
                    i.statement(),
                    i.checked());
            i.violations().stream().limit(MAX_VIOLATIONS).forEach(v -> out.println("         - " + v));
            if (i.violations().size() > MAX_VIOLATIONS) {
                out.println("         ... " + (i.violations().size() - MAX_VIOLATIONS) + " more");
            }
        }
        out.println(r.invariantsHold() ? "all invariants hold" : "INVARIANTS VIOLATED");
    }

    private static void allocation(PrintStream out, List<DeviceRow> rows) {
        out.println(Table.allocationTitle(rows) + ":");
        out.print(Table.allocation(rows).text("  "));
    }

    private static void latencies(PrintStream out, Map<String, Latencies.Stats> latencies, String source) {
        out.println(
                "latency"
                        + (RunReport.SIMULATED_LATENCIES.equals(source)
                                ? ":"
                                : " (filter, bind: inside the extender, as kube-scheduler called it; allocate: the kubelets):"));
        out.print(Table.latency(latencies).text("  "));
    }
}
