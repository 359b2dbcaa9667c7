package io.hami.scheduler.bench;

import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.Extender;
import io.hami.scheduler.extender.ExtenderArgs;
import io.hami.scheduler.extender.ExtenderJson;
import io.hami.scheduler.extender.FilterResult;
import io.hami.scheduler.http.SchedulerHttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Filter latency over every node of a large cluster (issues 4 and 11): the {@link BenchCluster}, one pod asking for
 * one GPU with 1000 MiB. {@code inProcess} calls the extender; {@code http} posts kube-scheduler's body (the pod and
 * every node name) to the scheduler's own HTTP server on loopback and reads the whole answer, over one kept-alive
 * connection as kube-scheduler's client does: the same node list each time, as kube-scheduler sends it pod after pod;
 * {@code httpNewList} alternates two orders of the list, so that no request finds the list read before. CPU per request is the process's CPU time over the measured requests:
 * all of it in process, and without the client's thread through HTTP (what is left is the server: its threads, the
 * parallel filter, the GC). {@code main} prints p50/p99 and CPU per request per size, the 5,000/1,000 ratio and the
 * ratio to issue 11's goal; run it with {@code scripts/bench.sh scheduler FilterLatencyBenchmark -wi 2 -i 3 -f 1}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class FilterLatencyBenchmark {
    static final int GPUS = BenchCluster.GPUS;
    static final int PODS = BenchCluster.PODS;
    /** Issue 11's goal for /filter at 5,000 nodes through HTTP. */
    static final double GOAL_P99_MS = 2.0;
    /** Where each forked trial appends its CPU figure for {@code main} (the fork is another JVM). */
    static final String CPU_FILE = "hami.bench.cpuFile";

    @Param({"1000", "5000"})
    public int nodes;

    private Extender extender;
    private ExtenderArgs args;
    private SchedulerHttpServer server;
    private URL filterUrl;
    private byte[] body;
    /** The same nodes in another order: a list the server has not just read. */
    private byte[] rotated;

    private boolean flip;
    private final byte[] buffer = new byte[64 * 1024];

    @Setup
    public void cluster() throws Exception {
        var cluster = BenchCluster.of(nodes);
        extender = cluster.extender();
        args = new ExtenderArgs(BenchCluster.oneGpuPod(1000), null, cluster.nodeNames());
        server = SchedulerHttpServer.start(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                null,
                null,
                new SchedulerHttpServer.Routes(
                        extender::filter,
                        extender::prioritize,
                        b -> new BindingResult("not served by this benchmark"),
                        ex -> ex.close(),
                        () -> true));
        filterUrl = URI.create("http://127.0.0.1:" + server.address().getPort() + "/filter")
                .toURL();
        body = kubeSchedulerBody(cluster.nodeNames());
        var names = new java.util.ArrayList<>(cluster.nodeNames());
        java.util.Collections.rotate(names, 1);
        rotated = kubeSchedulerBody(names);
        // The HTTP answer must be the in-process one, byte for byte, or the two figures measure different things.
        byte[] expected = ExtenderJson.write(extender.filter(args));
        byte[] actual = post();
        if (!Arrays.equals(expected, actual)) {
            throw new IllegalStateException("/filter over HTTP answered differently from filter in process: "
                    + new String(actual, 0, Math.min(actual.length, 300), StandardCharsets.UTF_8));
        }
    }

    @TearDown
    public void stop() {
        server.close();
    }

    /** kube-scheduler's {@code ExtenderArgs} with a node cache: the pod as the API server serves it, Nodes null. */
    static byte[] kubeSchedulerBody(List<String> names) {
        var json = new StringBuilder(
                "{\"Pod\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"incoming\","
                        + "\"namespace\":\"default\",\"uid\":\"00000000-0000-0000-0000-000000000001\"},\"spec\":{\"schedulerName\":"
                        + "\"hami-scheduler\",\"containers\":[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\","
                        + "\"nvidia.com/gpumem\":\"1000\"}}}]},\"status\":{\"phase\":\"Pending\"}},\"Nodes\":null,\"NodeNames\":[");
        for (int n = 0; n < names.size(); n++) {
            json.append(n == 0 ? "\"" : ",\"").append(names.get(n)).append('"');
        }
        return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * One POST on the kept-alive connection, answered 200; its answer is then read whole, as kube-scheduler does. The
     * body is buffered, not streamed: before a streamed POST on a kept-alive connection the JDK's client probes the
     * connection with a 1 ms read timeout, which added a millisecond of its own to every request (Go's client does not).
     */
    private HttpURLConnection send(byte[] body) throws IOException {
        var c = (HttpURLConnection) filterUrl.openConnection();
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        c.setRequestProperty("Content-Type", "application/json");
        try (OutputStream out = c.getOutputStream()) {
            out.write(body);
        }
        if (c.getResponseCode() != 200) {
            throw new IllegalStateException("/filter answered " + c.getResponseCode());
        }
        return c;
    }

    private byte[] post() throws IOException {
        try (InputStream in = send(body).getInputStream()) {
            return in.readAllBytes();
        }
    }

    /** As {@link #post}, reading into one reused buffer. */
    private long postAndDrain(byte[] body) throws IOException {
        long read = 0;
        try (InputStream in = send(body).getInputStream()) {
            for (int r; (r = in.read(buffer)) > 0; ) {
                read += r;
            }
        }
        return read;
    }

    /** Process CPU time over the measured requests of one trial; Thread scope, so its fixtures run on the caller. */
    @State(Scope.Thread)
    public static class Cpu {
        private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
        private static final com.sun.management.OperatingSystemMXBean OS =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long requests;
        private long processAtStart;
        private long callerAtStart;
        private long measuredRequests;
        private long measuredProcessNs;
        private long measuredCallerNs;

        @Setup(Level.Iteration)
        public void start() {
            requests = 0;
            processAtStart = OS.getProcessCpuTime();
            callerAtStart = THREADS.getCurrentThreadCpuTime();
        }

        @TearDown(Level.Iteration)
        public void end(IterationParams iteration) {
            if (iteration.getType() == IterationType.MEASUREMENT) {
                measuredProcessNs += OS.getProcessCpuTime() - processAtStart;
                measuredCallerNs += THREADS.getCurrentThreadCpuTime() - callerAtStart;
                measuredRequests += requests;
            }
        }

        /** Appends "benchmark nodes process-ns caller-ns requests" for {@code main}. */
        @TearDown(Level.Trial)
        public void report(BenchmarkParams params) throws IOException {
            String file = System.getProperty(CPU_FILE);
            if (file != null && measuredRequests > 0) {
                String line = String.format(
                        Locale.ROOT,
                        "%s %s %d %d %d%n",
                        params.getBenchmark().replaceAll(".*\\.", ""),
                        params.getParam("nodes"),
                        measuredProcessNs,
                        measuredCallerNs,
                        measuredRequests);
                Files.writeString(Path.of(file), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            }
        }
    }

    @Benchmark
    public FilterResult inProcess(Cpu cpu) {
        cpu.requests++;
        return extender.filter(args);
    }

    @Benchmark
    public long http(Cpu cpu) throws IOException {
        cpu.requests++;
        return postAndDrain(body);
    }

    @Benchmark
    public long httpNewList(Cpu cpu) throws IOException {
        cpu.requests++;
        flip = !flip;
        return postAndDrain(flip ? rotated : body);
    }

    /** Runs the benchmark (JMH options may be passed) and prints the figures issues 4 and 11 ask for. */
    public static void main(String[] argv) throws Exception {
        Path cpuFile = Files.createTempFile("filter-cpu", ".txt");
        System.setProperty(CPU_FILE, cpuFile.toString()); // for -f 0
        var cli = new CommandLineOptions(argv);
        var opts = new OptionsBuilder()
                .parent(cli)
                .include(FilterLatencyBenchmark.class.getSimpleName())
                .jvmArgsAppend("-D" + CPU_FILE + "=" + cpuFile)
                .build();
        Collection<RunResult> results = new Runner(opts).run();
        // benchmark -> nodes -> CPU ms per request
        var cpuMs = new TreeMap<String, Map<String, Double>>();
        for (String line : Files.readAllLines(cpuFile)) {
            String[] f = line.split(" ", -1);
            long process = Long.parseLong(f[2]);
            long caller = Long.parseLong(f[3]);
            long requests = Long.parseLong(f[4]);
            // In process the caller's thread does filter's work; through HTTP it is the client, not the scheduler.
            double ms = (f[0].startsWith("http") ? process - caller : process) / 1e6 / requests;
            cpuMs.computeIfAbsent(f[0], k -> new TreeMap<>()).put(f[1], ms);
        }
        Files.deleteIfExists(cpuFile);
        // benchmark -> nodes -> {p50, p99}
        var latency = new TreeMap<String, Map<String, double[]>>();
        for (RunResult r : results) {
            var stats = r.getPrimaryResult().getStatistics();
            String bench = r.getParams().getBenchmark().replaceAll(".*\\.", "");
            String size = r.getParams().getParam("nodes");
            double p50 = stats.getPercentile(50);
            double p99 = stats.getPercentile(99);
            latency.computeIfAbsent(bench, k -> new TreeMap<>()).put(size, new double[] {p50, p99});
            Double cpu = cpuMs.getOrDefault(bench, Map.of()).get(size);
            System.out.printf(
                    Locale.ROOT,
                    "filter %s over %s nodes x %d GPUs, %d pods: p50 %.3f ms, p99 %.3f ms (%d samples), "
                            + "CPU %s per request (%.2f x the %.1f ms p99 goal)%n",
                    switch (bench) {
                        case "http" -> "through HTTP";
                        case "httpNewList" -> "through HTTP, a new node list each request,";
                        default -> "in process";
                    },
                    size,
                    GPUS,
                    PODS,
                    p50,
                    p99,
                    stats.getN(),
                    cpu == null ? "n/a" : String.format(Locale.ROOT, "%.3f ms", cpu),
                    p99 / GOAL_P99_MS,
                    GOAL_P99_MS);
        }
        latency.forEach((bench, bySize) -> {
            if (bySize.containsKey("1000") && bySize.containsKey("5000")) {
                System.out.printf(
                        Locale.ROOT,
                        "%s: p99 ratio 5000/1000 nodes %.2f (linear in nodes would be 5.00)%n",
                        bench,
                        bySize.get("5000")[1] / bySize.get("1000")[1]);
            }
        });
        for (String bench : List.of("http", "httpNewList")) {
            double[] http = latency.getOrDefault(bench, Map.of()).get("5000");
            if (http != null) {
                System.out.printf(
                        Locale.ROOT,
                        "/filter through HTTP at 5000 nodes%s: p99 %.3f ms, %.2f x the goal of %.1f ms (%s)%n",
                        bench.equals("http") ? "" : ", a new node list each request",
                        http[1],
                        http[1] / GOAL_P99_MS,
                        GOAL_P99_MS,
                        http[1] <= GOAL_P99_MS ? "met" : "missed");
            }
        }
    }
}
