package io.hami.scheduler.bench;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.Extender;
import io.hami.scheduler.extender.ExtenderArgs;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.extender.FilterResult;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
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
 * Filter latency over every node of a large cluster (issue 4): N nodes × 8 GPUs with 40,000 running pods in
 * the usage index, one pod asking for one GPU with 1000 MiB. {@code main} prints p50/p99 per size and the
 * 5,000/1,000 ratio; run it with {@code scripts/bench.sh scheduler FilterLatencyBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FilterLatencyBenchmark {
    static final int GPUS = 8;
    static final int PODS = 40_000;

    @Param({"1000", "5000"})
    public int nodes;

    private Extender extender;
    private ExtenderArgs args;

    @Setup
    public void cluster() {
        var backends = DeviceBackends.load(DeviceConfig.DEFAULTS);
        var index = new UsageIndex();
        var names = new ArrayList<String>(nodes);
        for (int n = 0; n < nodes; n++) {
            var devices = new ArrayList<DeviceInfo>(GPUS);
            for (int g = 0; g < GPUS; g++) {
                devices.add(new DeviceInfo("GPU-" + n + "-" + g, g, 100, 80_000, 100, "NVIDIA-H100", g / 4, "hami-core", true));
            }
            String name = "node-" + n;
            names.add(name);
            index.putNode(name, Map.of(), Map.of("NVIDIA", devices), Map.of());
        }
        var rnd = new Random(1);
        for (int p = 0; p < PODS; p++) {
            int n = rnd.nextInt(nodes);
            String uuid = "GPU-" + n + "-" + rnd.nextInt(GPUS);
            index.putPod("default/running-" + p, new PodUsage.Counted("node-" + n, Map.of(uuid, new Grant(1, 1000 + rnd.nextInt(4000), rnd.nextInt(10))), Map.of()));
        }
        extender = new Extender(index, new QuotaBook(backends, index), backends, SchedulingPolicy.UPSTREAM_DEFAULTS, () -> true,
                FilterObserver.NONE);
        Pod pod = new PodBuilder().withNewMetadata().withNamespace("default").withName("incoming").endMetadata()
                .withNewSpec().withContainers(new ContainerBuilder().withName("c").withNewResources()
                        .addToLimits("nvidia.com/gpu", new Quantity("1")).addToLimits("nvidia.com/gpumem", new Quantity("1000"))
                        .endResources().build()).endSpec().build();
        args = new ExtenderArgs(pod, null, List.copyOf(names));
    }

    @Benchmark
    public FilterResult filterEveryNode() {
        return extender.filter(args);
    }

    /** Runs the benchmark (JMH options may be passed) and prints the figures issue 4 asks for. */
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
        System.out.printf("p99 ratio 5000/1000 nodes: %.2f (linear in nodes would be 5.00); goal p99 <= 10 ms at 5000: %s%n",
                p99At5000 / p99At1000, p99At5000 <= 10.0 ? "met" : "missed");
    }
}
