package io.hami.scheduler.bench;

import io.hami.scheduler.extender.CandidateCheck;
import io.hami.scheduler.fit.Denial;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Fit cost per candidate node (issue 11, goal ≤ 100 ns), one thread: filter's question for one node, the nodes taken
 * in turn, on the {@link BenchCluster}. {@code summary} is filter's path (the node summary), {@code fullPlacement}
 * the sort-and-walk placement it replaces where the summary decides. {@code pod}: {@code fits} asks for one GPU with
 * 1000 MiB (nearly every node fits), {@code fitsNowhere} for 80,001 MiB (every node fails, with its reason).
 * {@code main} prints ns per node, the ratio to the goal and the speed-up; run it with
 * {@code scripts/bench.sh scheduler FitCostBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
@Threads(1)
public class FitCostBenchmark {
    static final double GOAL_NS = 100;

    @Param({"1000", "5000"})
    public int nodes;

    @Param({"fits", "fitsNowhere"})
    public String pod;

    private CandidateCheck check;
    private String[] names;
    private int next;

    @Setup
    public void cluster() throws Exception {
        var cluster = BenchCluster.of(nodes);
        check = cluster.extender().check(BenchCluster.oneGpuPod(pod.equals("fits") ? 1000 : 80_001));
        if (!check.quick()) {
            throw new IllegalStateException("the benchmark pod does not take the fast path");
        }
        names = cluster.nodeNames().toArray(String[]::new);
    }

    private String node() {
        String n = names[next];
        next = next + 1 == names.length ? 0 : next + 1;
        return n;
    }

    @Benchmark
    public Denial summary() {
        return check.whyNot(node());
    }

    @Benchmark
    public Denial fullPlacement() {
        return check.whyNotByPlacement(node());
    }

    /** Runs the benchmark (JMH options may be passed) and prints the figures issue 11 asks for. */
    public static void main(String[] argv) throws Exception {
        var cli = new CommandLineOptions(argv);
        var opts = new OptionsBuilder()
                .parent(cli)
                .include(FitCostBenchmark.class.getSimpleName())
                .build();
        Collection<RunResult> results = new Runner(opts).run();
        // pod -> nodes -> benchmark -> ns per node
        var ns = new TreeMap<String, Map<String, Map<String, Double>>>();
        for (RunResult r : results) {
            String bench = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            ns.computeIfAbsent(r.getParams().getParam("pod"), k -> new TreeMap<>())
                    .computeIfAbsent(r.getParams().getParam("nodes"), k -> new TreeMap<>())
                    .put(bench, r.getPrimaryResult().getScore());
        }
        ns.forEach((pod, bySize) -> bySize.forEach((size, b) -> System.out.printf(
                "fit cost per candidate node, pod %s, %s nodes x %d GPUs, %d pods: %.1f ns (%.2f x the goal of %.0f ns); "
                        + "full placement %.1f ns, %.1f times the summary%n",
                pod,
                size,
                BenchCluster.GPUS,
                BenchCluster.PODS,
                b.get("summary"),
                b.get("summary") / GOAL_NS,
                GOAL_NS,
                b.get("fullPlacement"),
                b.get("fullPlacement") / b.get("summary"))));
        ns.forEach((pod, bySize) -> {
            if (bySize.containsKey("1000") && bySize.containsKey("5000")) {
                System.out.printf(
                        "pod %s, 5000/1000 nodes per node: summary %.2f, full placement %.2f (1.00: flat)%n",
                        pod,
                        bySize.get("5000").get("summary") / bySize.get("1000").get("summary"),
                        bySize.get("5000").get("fullPlacement")
                                / bySize.get("1000").get("fullPlacement"));
            }
        });
    }
}
