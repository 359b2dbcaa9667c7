package io.hami.scheduler.cluster;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * What the scheduler's informers pay per pod or node event (issue 11): fabric8 reads the event's JSON into a raw
 * object ({@code parse}), then {@link TolerantInformer} decodes it into the model, whole ({@code whole}, as before) or
 * cut to what the scheduler reads ({@code trimmed}, now). Objects: {@code typical-pod.json} (a running GPU pod of a
 * Deployment, 7.4 kB: managedFields, env, volumes, probes, conditions) and {@code typical-node.json} (8 GPUs, 30 images).
 * {@code main} prints ns per event and the ratios; run it with {@code scripts/bench.sh scheduler DecodeBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DecodeBenchmark {
    @Param({"pod", "node"})
    public String kind;

    private final KubernetesSerialization json = new KubernetesSerialization();
    private String text;
    private GenericKubernetesResource raw;
    private Class<? extends HasMetadata> type;

    @Setup
    public void read() throws IOException {
        try (InputStream in = DecodeBenchmark.class.getResourceAsStream("typical-" + kind + ".json")) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        raw = json.unmarshal(text, GenericKubernetesResource.class);
        type = kind.equals("pod") ? Pod.class : Node.class;
    }

    @Benchmark
    public GenericKubernetesResource parse() {
        return json.unmarshal(text, GenericKubernetesResource.class);
    }

    @Benchmark
    public HasMetadata whole() {
        return json.convertValue(raw, type);
    }

    @Benchmark
    public HasMetadata trimmed() {
        return TolerantInformer.decode(json, raw, type, type == Pod.class ? CachedFields::pod : CachedFields::node);
    }

    /** Runs the benchmark (JMH options may be passed) and prints ns per event, before and after. */
    public static void main(String[] argv) throws Exception {
        var opts = new OptionsBuilder()
                .parent(new CommandLineOptions(argv))
                .include(DecodeBenchmark.class.getSimpleName())
                .build();
        Collection<RunResult> results = new Runner(opts).run();
        Map<String, Double> ns = new HashMap<>();
        for (RunResult r : results) {
            String label = r.getPrimaryResult().getLabel();
            ns.put(
                    r.getParams().getParam("kind") + "/" + label,
                    r.getPrimaryResult().getScore());
        }
        System.out.println();
        for (String k : new String[] {"pod", "node"}) {
            double parse = ns.getOrDefault(k + "/parse", Double.NaN);
            double whole = ns.getOrDefault(k + "/whole", Double.NaN);
            double trimmed = ns.getOrDefault(k + "/trimmed", Double.NaN);
            System.out.printf(
                    Locale.ROOT,
                    "%s event: parse %,.0f ns; decode whole %,.0f ns (%.0f %% on top of the parse), "
                            + "trimmed %,.0f ns (%.0f %%); trimmed/whole %.2f; per event %,.0f -> %,.0f ns (%.2f)%n",
                    k,
                    parse,
                    whole,
                    100 * whole / parse,
                    trimmed,
                    100 * trimmed / parse,
                    trimmed / whole,
                    parse + whole,
                    parse + trimmed,
                    (parse + trimmed) / (parse + whole));
        }
    }
}
