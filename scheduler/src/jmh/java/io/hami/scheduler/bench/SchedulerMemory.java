package io.hami.scheduler.bench;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.hami.kube.client.KubeClients;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.config.DeviceConfig;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.leader.LeaderMode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Scheduler memory at cluster scale (issue 11): the embedded API server holds N nodes × 8 GPUs ({@code typical-node.json})
 * and P decided, running pods ({@code typical-pod.json}, 7.4 kB each as a real GPU pod of a Deployment is); a scheduler
 * ({@link SchedulerApp}, as {@code hami scheduler} starts it) runs in a child JVM with the JVM options of a
 * configuration, syncs, and takes F {@code /filter} calls over HTTP, each with every node as a candidate. Printed per
 * configuration: the sync time, RSS ({@code /proc/<pid>/status} VmRSS) fresh and after the load, the peak (VmHWM), and
 * the heap used after a full GC, with the ratio to the Deployment's 1 GiB limit. Configurations, in one run: the JVM's
 * defaults with whole cached objects (before issue 11), the Deployment's options with whole objects (round 1), the
 * Deployment's options with trimmed objects (now).
 *
 * <pre>scripts/bench.sh scheduler SchedulerMemory [nodes [pods [filters]]]     (5000 40000 2000)</pre>
 */
public final class SchedulerMemory {
    static final long LIMIT = 1L << 30;
    private static final String ROOT_MARK = "deploy/kubernetes/scheduler/deployment.yaml";

    private SchedulerMemory() {}

    record Config(String name, List<String> jvm, boolean wholeObjects) {}

    record Figures(
            String config,
            String outcome,
            double syncS,
            long rssFresh,
            long heapFresh,
            double filterP50Ms,
            double filterP99Ms,
            long rssLoaded,
            long peak,
            long heapLoaded) {}

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 5000;
        int pods = args.length > 1 ? Integer.parseInt(args[1]) : 40_000;
        int filters = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
        Path root = root();
        List<String> deployment = deploymentOptions(root);
        var configs = List.of(
                new Config("JVM defaults, whole objects (before)", List.of(), true),
                new Config("Deployment options, whole objects (round 1)", deployment, true),
                new Config("Deployment options, trimmed objects (now)", deployment, false));
        try (var server = EmbeddedApiServer.start()) {
            long t0 = System.nanoTime();
            load(server.url(), nodes, pods);
            System.out.printf(
                    Locale.ROOT,
                    "loaded %d nodes x 8 GPUs and %d pods into the embedded API server in %.1f s%n",
                    nodes,
                    pods,
                    (System.nanoTime() - t0) / 1e9);
            String body = filterBody(nodes);
            var out = new ArrayList<Figures>();
            for (Config c : configs) {
                Figures f = run(c, server.url(), nodes, filters, body);
                out.add(f);
                print(f);
            }
            System.out.printf(
                    Locale.ROOT,
                    "%nscheduler memory at %d nodes x 8 GPUs, %d pods, %d filters (Deployment options: %s; limit 1 GiB)%n",
                    nodes,
                    pods,
                    filters,
                    String.join(" ", deployment));
            for (Figures f : out) {
                print(f);
            }
        }
    }

    private static void print(Figures f) {
        if (!f.outcome().isEmpty()) {
            System.out.printf(Locale.ROOT, "  %-46s %s%n", f.config(), f.outcome());
            return;
        }
        System.out.printf(
                Locale.ROOT,
                "  %-46s sync %.1f s | fresh: RSS %s (%.2f of 1 GiB), heap after GC %s | filter p50 %.1f ms, p99 %.1f ms"
                        + " | after the load: RSS %s (%.2f), peak %s (%.2f), heap after GC %s%n",
                f.config(),
                f.syncS(),
                mib(f.rssFresh()),
                (double) f.rssFresh() / LIMIT,
                mib(f.heapFresh()),
                f.filterP50Ms(),
                f.filterP99Ms(),
                mib(f.rssLoaded()),
                (double) f.rssLoaded() / LIMIT,
                mib(f.peak()),
                (double) f.peak() / LIMIT,
                mib(f.heapLoaded()));
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%,d MiB", bytes >> 20);
    }

    /** The repository root, found upwards from the working directory. */
    static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve(ROOT_MARK))) {
                return p;
            }
        }
        throw new IllegalStateException("run from inside the repository: " + ROOT_MARK + " not found");
    }

    /** The scheduler image's JVM options (before {@code -jar}) and the Deployment's {@code JDK_JAVA_OPTIONS}. */
    static List<String> deploymentOptions(Path root) throws IOException {
        var out = new ArrayList<String>();
        String dockerfile = Files.readString(root.resolve("deploy/docker/scheduler.Dockerfile"));
        Matcher entry = Pattern.compile("ENTRYPOINT \\[(.*)]").matcher(dockerfile);
        if (entry.find()) {
            for (String word : entry.group(1).split(",", -1)) {
                String w = word.strip().replace("\"", "");
                if (w.equals("-jar")) {
                    break;
                }
                if (w.startsWith("-")) {
                    out.add(w);
                }
            }
        }
        String yaml = Files.readString(root.resolve(ROOT_MARK));
        Matcher env = Pattern.compile("name: JDK_JAVA_OPTIONS\\s+value: (.*)").matcher(yaml);
        if (!env.find()) {
            throw new IllegalStateException("no JDK_JAVA_OPTIONS in " + ROOT_MARK);
        }
        out.addAll(List.of(env.group(1).strip().split("\\s+")));
        return out;
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = SchedulerMemory.class.getResourceAsStream("/io/hami/scheduler/cluster/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String withoutServerFields(String json) {
        return json.replaceAll("\"resourceVersion\":\\s*\"\\d+\",?", "").replaceAll("\"uid\":\\s*\"[0-9a-f-]+\",", "");
    }

    /** Creates the nodes and pods over HTTP, a few requests at a time. */
    static void load(String url, int nodes, int pods) throws Exception {
        String node = withoutServerFields(resource("typical-node.json"));
        String pod = withoutServerFields(resource("typical-pod.json"));
        var http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        var inFlight = new Semaphore(8);
        var failed = new AtomicInteger();
        var all = new ArrayList<CompletableFuture<?>>();
        for (int n = 0; n < nodes; n++) {
            String id = String.format(Locale.ROOT, "%04d", n);
            all.add(post(http, inFlight, failed, url + "/api/v1/nodes", node.replace("0042", id)));
        }
        var rnd = new Random(1);
        for (int p = 0; p < pods; p++) {
            String id = String.format(Locale.ROOT, "%04d", rnd.nextInt(nodes));
            String ns = "team-" + (p % 50);
            String json = pod.replace("trainer-7d9f8c6b5d-x2k4p", "trainer-" + p)
                    .replace("\"ml-team\"", "\"" + ns + "\"")
                    .replace("0042-3,NVIDIA,20000", "0042-" + rnd.nextInt(8) + ",NVIDIA," + (1000 + rnd.nextInt(9000)))
                    .replace("0042", id)
                    .replace(
                            "\"creationTimestamp\"",
                            "\"uid\": \"" + UUID.nameUUIDFromBytes(("p" + p).getBytes(StandardCharsets.UTF_8))
                                    + "\", \"creationTimestamp\"");
            all.add(post(http, inFlight, failed, url + "/api/v1/namespaces/" + ns + "/pods", json));
        }
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " objects were not created");
        }
    }

    private static CompletableFuture<?> post(
            HttpClient http, Semaphore inFlight, AtomicInteger failed, String url, String json)
            throws InterruptedException {
        inFlight.acquire();
        var req = HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return http.sendAsync(req, HttpResponse.BodyHandlers.discarding()).whenComplete((r, e) -> {
            inFlight.release();
            if (e != null || r.statusCode() / 100 != 2) {
                failed.incrementAndGet();
            }
        });
    }

    /** kube-scheduler's filter call: a pod asking for one GPU with 1000 MiB, every node a candidate. */
    static String filterBody(int nodes) {
        var names = new StringBuilder();
        for (int n = 0; n < nodes; n++) {
            names.append(n == 0 ? "" : ",").append(String.format(Locale.ROOT, "\"gpu-node-%04d\"", n));
        }
        return "{\"Pod\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"incoming\",\"namespace\":\"default\","
                + "\"uid\":\"00000000-0000-0000-0000-000000000001\"},\"spec\":{\"schedulerName\":\"hami-scheduler\",\"containers\":"
                + "[{\"name\":\"c\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"1\",\"nvidia.com/gpumem\":\"1000\"}}}]}},"
                + "\"NodeNames\":[" + names + "]}";
    }

    private static Figures run(Config c, String url, int nodes, int filters, String body) throws Exception {
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (!c.jvm().isEmpty()) {
            command.add("-XX:MaxRAM=" + LIMIT); // the container's memory, as the JVM in the pod sees it
        }
        command.addAll(c.jvm());
        command.add("-Dhami.bench.wholeObjects=" + c.wholeObjects());
        String logback = System.getProperty("logback.configurationFile");
        if (logback != null) {
            command.add("-Dlogback.configurationFile=" + logback);
        }
        command.addAll(List.of(
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                Child.class.getName(),
                url));
        command.add(String.valueOf(nodes));
        Path log = Path.of("target", "scheduler-memory-" + c.jvm().size() + "-" + c.wholeObjects() + ".log");
        var pb = new ProcessBuilder(command).redirectError(log.toFile());
        pb.environment().remove("JDK_JAVA_OPTIONS");
        long start = System.nanoTime();
        Process child = pb.start();
        BlockingQueue<String> answers = new LinkedBlockingQueue<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (var in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    if (line.startsWith("BENCH ")) {
                        answers.add(line.substring(6));
                    }
                }
            } catch (IOException e) {
                // the child is gone
            } finally {
                answers.add("EOF");
            }
        });
        var commands = new PrintStream(child.getOutputStream(), true, StandardCharsets.UTF_8);
        try {
            String ready = answers.poll(10, TimeUnit.MINUTES);
            if (ready == null || !ready.startsWith("READY ")) {
                child.waitFor(5, TimeUnit.SECONDS);
                return failed(c, child, "did not sync");
            }
            double sync = (System.nanoTime() - start) / 1e9;
            int port = Integer.parseInt(ready.substring(6));
            long rssFresh = status(child.pid(), "VmRSS");
            commands.println("GC");
            long heapFresh = Long.parseLong(answers.poll(2, TimeUnit.MINUTES).substring(5));
            double[] latencies = filterLoad(port, filters, body);
            if (!child.isAlive()) {
                return failed(c, child, "died under the filter load");
            }
            long rssLoaded = status(child.pid(), "VmRSS");
            long peak = status(child.pid(), "VmHWM");
            commands.println("GC");
            String heap = answers.poll(2, TimeUnit.MINUTES);
            if (heap == null || !heap.startsWith("HEAP ")) {
                return failed(c, child, "died under the filter load");
            }
            return new Figures(
                    c.name(),
                    "",
                    sync,
                    rssFresh,
                    heapFresh,
                    latencies[0],
                    latencies[1],
                    rssLoaded,
                    peak,
                    Long.parseLong(heap.substring(5)));
        } finally {
            child.destroyForcibly().waitFor();
        }
    }

    private static Figures failed(Config c, Process child, String what) throws InterruptedException {
        String how = child.isAlive()
                ? "still running"
                : child.waitFor() == 3 ? "out of memory, exit 3" : "exit " + child.exitValue();
        return new Figures(c.name(), what + " (" + how + ")", 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** Filter p50 and p99 in ms over {@code filters} calls, two at a time as kube-scheduler's profiles may. */
    private static double[] filterLoad(int port, int filters, String body) throws Exception {
        var http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        var req = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/filter"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        long[] ns = new long[filters];
        var next = new AtomicInteger();
        var errors = new AtomicInteger();
        var workers = new ArrayList<Thread>();
        for (int w = 0; w < 2; w++) {
            workers.add(Thread.ofPlatform().start(() -> {
                for (int i; (i = next.getAndIncrement()) < filters; ) {
                    long t = System.nanoTime();
                    try {
                        var r = http.send(req, HttpResponse.BodyHandlers.ofString());
                        if (r.statusCode() != 200 || !r.body().contains("\"NodeNames\":[\"gpu-node-")) {
                            errors.incrementAndGet();
                        }
                    } catch (IOException | InterruptedException e) {
                        errors.incrementAndGet();
                    }
                    ns[i] = System.nanoTime() - t;
                }
            }));
        }
        for (Thread t : workers) {
            t.join();
        }
        if (errors.get() > 0) {
            System.out.printf(
                    Locale.ROOT, "  (%d of %d filter calls failed or fitted no node)%n", errors.get(), filters);
        }
        java.util.Arrays.sort(ns);
        return new double[] {ns[filters / 2] / 1e6, ns[(int) (filters * 0.99)] / 1e6};
    }

    /** A {@code /proc/<pid>/status} field in bytes. */
    static long status(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("\\D", "")) << 10;
            }
        }
        throw new IllegalStateException(field + " not in /proc/" + pid + "/status");
    }

    /**
     * The scheduler under test: started as {@code hami scheduler} starts it (bounded client, every leader mode but one
     * replica), then answers on stdin: {@code GC} with the heap used after a full collection.
     */
    public static final class Child {
        private Child() {}

        public static void main(String[] args) throws Exception {
            var out = System.out;
            var client = new KubernetesClientBuilder()
                    .withConfig(KubeClients.bounded(
                            new ConfigBuilder().withMasterUrl(args[0]).build()))
                    .build();
            var settings = new SchedulerApp.Settings(
                    new SchedulerApp.Settings.Http(new InetSocketAddress("127.0.0.1", 0)),
                    new SchedulerApp.Settings.Scheduling(
                            "hami-scheduler",
                            SchedulingPolicy.UPSTREAM_DEFAULTS,
                            Duration.ofMinutes(5),
                            DeviceConfig.DEFAULTS),
                    new SchedulerApp.Settings.Replica(new LeaderMode.Always(), Duration.ofSeconds(15)),
                    new SchedulerApp.Settings.Metrics(null, "bench"));
            var app = SchedulerApp.start(client, settings, new PrometheusRegistry(), Clock.systemUTC());
            // Started means listed; the events of the list may still be on their way into the index.
            while (app.index().nodeNames().size() < Integer.parseInt(args[1])) {
                Thread.sleep(100);
            }
            Thread.sleep(5000);
            out.println("BENCH READY " + app.address().getPort());
            var in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                if (line.equals("GC")) {
                    System.gc();
                    System.gc();
                    out.println("BENCH HEAP "
                            + ManagementFactory.getMemoryMXBean()
                                    .getHeapMemoryUsage()
                                    .getUsed());
                }
            }
            app.close();
            client.close();
        }
    }
}
