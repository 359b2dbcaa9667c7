package io.hami.scheduler.bench;

import io.hami.scheduler.extender.Extender;
import io.hami.scheduler.extender.ExtenderArgs;
import io.hami.scheduler.extender.FilterResult;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Filter latency over every node of a large cluster (issues 4 and 11): the {@link BenchCluster}, one pod asking for
 * one GPU with 1000 MiB. {@code main} prints p50/p99 per size, the 5,000/1,000 ratio and the ratio to issue 11's
 * goal; run it with {@code scripts/bench.sh scheduler FilterLatencyBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FilterLatencyBenchmark {
    static final int GPUS = BenchCluster.GPUS;
    static final int PODS = BenchCluster.PODS;
    /** Issue 11's goal for /filter at 5,000 nodes (through HTTP; in process is the part of it filter owns). */
    static final double GOAL_P99_MS = 2.0;

    @Param({"1000", "5000"})
    public int nodes;

    private Extender extender;
    private ExtenderArgs args;

    @Setup
    public void cluster() {
        var cluster = BenchCluster.of(nodes);
        extender = cluster.extender();
        args = new ExtenderArgs(BenchCluster.oneGpuPod(1000), null, cluster.nodeNames());
    }

    @Benchmark
    public FilterResult filterEveryNode() {
        return extender.filter(args);
    }

    /** Runs the benchmark (JMH options may be passed) and prints the figures issues 4 and 11 ask for. */
    public static void main(String[] argv) throws Exception {
        var cli = new CommandLineOptions(argv);
        var opts = new OptionsBuilder().parent(cli).include(FilterLatencyBenchmark.class.getSimpleName()).build();
        Collection<RunResult> results = new Runner(opts).run();
        double p99At1000 = Double.NaN;
        double p99At5000 = Double.NaN;
        for (RunResult r : results) {
            var stats = r.getPrimaryResult().getStatistics();
            String size = r.getParams().getParam("nodes");
            double p50 = stats.getPercentile(50);
            double p99 = stats.getPercentile(99);
            System.out.printf("filter over %s nodes x %d GPUs, %d pods: p50 %.3f ms, p99 %.3f ms (%d samples)%n",
                    size, GPUS, PODS, p50, p99, stats.getN());
            if (size.equals("1000")) {
                p99At1000 = p99;
            } else if (size.equals("5000")) {
                p99At5000 = p99;
            }
        }
        System.out.printf("p99 ratio 5000/1000 nodes: %.2f (linear in nodes would be 5.00)%n", p99At5000 / p99At1000);
        System.out.printf("/filter in process at 5000 nodes: p99 %.3f ms, %.2f x the goal of %.1f ms (%s)%n",
                p99At5000, p99At5000 / GOAL_P99_MS, GOAL_P99_MS, p99At5000 <= GOAL_P99_MS ? "met" : "missed");
    }
}
