package io.hami.scheduler.bench;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.health.HealthVerdict;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.metrics.Exposition;
import io.hami.scheduler.metrics.MetricsServer;
import io.hami.scheduler.metrics.SchedulerMetrics;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The scheduler's {@code /metrics} at cluster scale (issue 11): N nodes × 8 GPUs, 40,000 running pods (one GPU
 * each) in the usage index and the pod informer, every node's handshake answered. {@code text} is one scrape
 * written in the text format in process as the server writes it, {@code gzip} the same compressed, {@code client}
 * the first round's path (the whole registry through the client library's writer, for the ratio); {@code http} is
 * one GET of {@code /metrics} with gzip. {@code containers} registers upstream's per-container gauges (the scheduler's {@code --container-metrics}).
 * {@code main} prints p50 per case, the body's size and series, and the ratio to the 250 ms goal; run it with
 * {@code scripts/bench.sh scheduler ScrapeBenchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
public class ScrapeBenchmark {
    static final int GPUS = 8;
    static final int PODS = 40_000;
    static final double GOAL_MS = 250;

    @Param({"1000", "5000"})
    public int nodes;

    @Param({"false", "true"})
    public boolean containers;

    /** Nodes whose usage changes before each scrape: none (an idle cluster), a tenth, or every node (the worst case). */
    @Param({"0", "500", "5000"})
    public int changed;

    private int round;

    private Scheduler scheduler;
    private MetricsServer server;
    private HttpClient http;
    private HttpRequest get;

    static String uuid(int node, int gpu) {
        return "GPU-%08x-%04x-4%03x-8%03x-%012x"
                .formatted(node * 31 + gpu, node % 65536, gpu, node % 4096, (long) node * GPUS + gpu);
    }

    /** A scheduler's registry and its {@code /metrics} body writer. */
    record Scheduler(PrometheusRegistry registry, Exposition exposition, UsageIndex index) {}

    /** The metrics of a scheduler that watches {@code nodes} nodes and {@link #PODS} pods. */
    static Scheduler cluster(int nodes, boolean containers) {
        var backends = DeviceBackends.load(DeviceConfig.DEFAULTS);
        var registry = new PrometheusRegistry();
        var metrics = new SchedulerMetrics(registry, "bench");
        var index = new UsageIndex();
        for (int n = 0; n < nodes; n++) {
            var devices = new ArrayList<DeviceInfo>(GPUS);
            for (int g = 0; g < GPUS; g++) {
                devices.add(new DeviceInfo(
                        uuid(n, g), g, 100, 81_559, 100, "NVIDIA-H100-80GB-HBM3", g / 4, "hami-core", true));
            }
            index.putNode(node(n), Map.of(), Map.of("NVIDIA", devices), Map.of());
            metrics.verdict(node(n), "NVIDIA", HealthVerdict.NO_HANDSHAKE);
        }
        var rnd = new Random(1);
        var pods = new ArrayList<Pod>(PODS);
        for (int p = 0; p < PODS; p++) {
            int n = rnd.nextInt(nodes);
            String uuid = uuid(n, rnd.nextInt(GPUS));
            int mem = 1000 + rnd.nextInt(4000);
            int cores = rnd.nextInt(10);
            index.putPod(
                    "default/running-" + p,
                    new PodUsage.Counted(node(n), Map.of(uuid, new Grant(1, mem, cores)), Map.of()));
            pods.add(new PodBuilder()
                    .withNewMetadata()
                    .withNamespace("default")
                    .withName("running-" + p)
                    .addToAnnotations("hami.io/vgpu-devices-allocated", uuid + ",NVIDIA," + mem + "," + cores + ":;")
                    .endMetadata()
                    .withNewSpec()
                    .withNodeName(node(n))
                    .endSpec()
                    .withNewStatus()
                    .withPhase("Running")
                    .endStatus()
                    .build());
        }
        metrics.registerDeviceUsage(index);
        if (containers) {
            List<Pod> all = List.copyOf(pods);
            metrics.registerContainerGrants(() -> all, backends);
        }
        return new Scheduler(registry, metrics.exposition(), index);
    }

    static String node(int n) {
        return "node-%05d".formatted(n);
    }

    @Setup
    public void setUp() throws IOException {
        scheduler = cluster(nodes, containers);
        server =
                MetricsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), scheduler.exposition());
        http = HttpClient.newHttpClient();
        get = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.address().getPort() + "/metrics"))
                .header("Accept-Encoding", "gzip")
                .build();
    }

    /** One pod per changed node takes a little more or less memory, so those nodes' lines are rendered again. */
    @Setup(Level.Invocation)
    public void change() {
        round++;
        for (int n = 0; n < Math.min(changed, nodes); n++) {
            scheduler
                    .index()
                    .putPod(
                            "default/churn-" + n,
                            new PodUsage.Counted(
                                    node(n), Map.of(uuid(n, 0), new Grant(1, 1 + round % 2, 0)), Map.of()));
        }
    }

    @TearDown
    public void tearDown() {
        http.close();
        server.close();
    }

    /** One scrape as the server writes it, text 0.0.4, uncompressed, in process. */
    @Benchmark
    public long text() throws IOException {
        var out = new CountingBytes();
        scheduler.exposition().write(out, false);
        return out.bytes;
    }

    /** As {@link #text}, gzip (what Prometheus asks for), in process. */
    @Benchmark
    public long gzip() throws IOException {
        return scheduler.exposition().gzip(false).length;
    }

    /** The first round's path, for the ratio: the whole registry through the client library's text writer. */
    @Benchmark
    public long client() throws IOException {
        var out = new CountingBytes();
        PrometheusTextFormatWriter.create().write(out, scheduler.registry().scrape());
        return out.bytes;
    }

    /** Counts bytes only, so the benchmark measures the scrape, not the counting. */
    static final class CountingBytes extends OutputStream {
        long bytes;

        @Override
        public void write(int b) {
            bytes++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            bytes += len;
        }
    }

    @Benchmark
    public long http() throws Exception {
        try (InputStream body =
                http.send(get, HttpResponse.BodyHandlers.ofInputStream()).body()) {
            return body.transferTo(OutputStream.nullOutputStream());
        }
    }

    /** Counts the body's bytes and sample lines without keeping it. */
    static final class Counting extends OutputStream {
        long bytes;
        /** Lines that are samples, not # HELP or # TYPE. */
        long samples;

        private boolean lineStart = true;

        @Override
        public void write(int b) {
            bytes++;
            if (lineStart && b != '#') {
                samples++;
            }
            lineStart = b == '\n';
        }

        @Override
        public void write(byte[] b, int off, int len) {
            for (int i = off; i < off + len; i++) {
                write(b[i]);
            }
        }
    }

    /** Bytes and series (sample lines) of one text-format scrape, and the gzip body's bytes. */
    static long[] size(Scheduler scheduler) {
        var out = new Counting();
        try {
            scheduler.exposition().write(out, false);
            return new long[] {out.bytes, out.samples, scheduler.exposition().gzip(false).length};
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the benchmark (JMH options may be passed) and prints the figures issue 11 asks for. */
    public static void main(String[] argv) throws Exception {
        var cli = new CommandLineOptions(argv);
        var opts = new OptionsBuilder()
                .parent(cli)
                .include(ScrapeBenchmark.class.getSimpleName())
                .build();
        Collection<RunResult> results = new Runner(opts).run();
        var lines = new TreeMap<String, String>();
        var bodies = new HashMap<String, long[]>();
        for (RunResult r : results) {
            var stats = r.getPrimaryResult().getStatistics();
            int size = Integer.parseInt(r.getParams().getParam("nodes"));
            boolean withContainers = Boolean.parseBoolean(r.getParams().getParam("containers"));
            int changedNodes = Integer.parseInt(r.getParams().getParam("changed"));
            String method = r.getParams().getBenchmark().replaceFirst(".*\\.", "");
            long[] body = bodies.computeIfAbsent(size + " " + withContainers, k -> size(cluster(size, withContainers)));
            double p50 = stats.getPercentile(50);
            lines.put(
                    "%05d %s %05d %s".formatted(size, withContainers, changedNodes, method),
                    ("scrape (%s) of %d nodes x %d GPUs, %d pods, container series %s, %d nodes changed:"
                                    + " p50 %.1f ms, p99 %.1f ms (%d samples); text body %.1f MB, %d series, gzip %.1f MB; p50/goal(%.0f ms) %.2f%n")
                            .formatted(
                                    method,
                                    size,
                                    GPUS,
                                    PODS,
                                    withContainers ? "on" : "off",
                                    Math.min(changedNodes, size),
                                    p50,
                                    stats.getPercentile(99),
                                    stats.getN(),
                                    body[0] / 1e6,
                                    body[1],
                                    body[2] / 1e6,
                                    GOAL_MS,
                                    p50 / GOAL_MS));
        }
        lines.values().forEach(System.out::print);
        for (RunResult r : results) {
            var params = r.getParams();
            if (params.getBenchmark().endsWith(".http")
                    && params.getParam("nodes").equals("5000")
                    && params.getParam("changed").equals("5000")) {
                double p50 = r.getPrimaryResult().getStatistics().getPercentile(50);
                System.out.printf(
                        "first /metrics scrape (HTTP, gzip) after every node changed at 5000 nodes, container series %s:"
                                + " p50 %.1f ms, %.2f x the goal of %.0f ms (%s)%n",
                        params.getParam("containers").equals("true") ? "on" : "off",
                        p50,
                        p50 / GOAL_MS,
                        GOAL_MS,
                        p50 <= GOAL_MS ? "met" : "missed");
            }
        }
    }
}
