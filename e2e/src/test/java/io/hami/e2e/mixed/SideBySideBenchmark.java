package io.hami.e2e.mixed;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.ControlPlaneBinaries;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.ManagedProcess;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.DeployFiles;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.device.DeviceInfo;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

/**
 * Upstream HAMi's scheduler and ours on the same real kube-apiserver state, measured in one run so that the ratio holds
 * on a shared, noisy machine: {@code /filter} latency (p50, p99) over alternating requests (kube-scheduler's body: the
 * pod and every node name), each process's CPU per request and its resident memory. Not a test: run it with
 *
 * <pre>HAMI_UPSTREAM_SRC=/path/to/HAMi scripts/bench.sh e2e SideBySideBenchmark [nodes] [pods] [requests]</pre>
 *
 * (defaults 1000 nodes x 8 GPUs, 8000 bound pods, 300 requests to each).
 */
public final class SideBySideBenchmark {
    private static final int GPUS = 8;
    private static final int GPU_MIB = 81920;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private SideBySideBenchmark() {}

    /** One scheduler's figures. */
    record Figures(double p50Ms, double p99Ms, double cpuMsPerRequest, long rssMiB) {}

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int pods = args.length > 1 ? Integer.parseInt(args[1]) : 8000;
        int requests = args.length > 2 ? Integer.parseInt(args[2]) : 300;
        if (System.getenv(UpstreamHami.SOURCE_ENV) == null) {
            System.err.println("side-by-side: set " + UpstreamHami.SOURCE_ENV + " to a checkout of upstream HAMi");
            System.exit(2);
        }
        Path work = DeployFiles.ROOT.resolve(
                "e2e/target/side-by-side/" + Instant.now().getEpochSecond());
        Path bin = UpstreamHami.binaries();
        System.out.printf(
                "side-by-side: %d nodes x %d GPUs, %d bound pods, %d requests each; upstream from %s%n",
                nodes, GPUS, pods, requests, bin);
        try (KubeControlPlane plane = KubeControlPlane.start(ControlPlaneBinaries.locate(), work.resolve("plane"));
                KubernetesClient admin = plane.newClient()) {
            plane.ensureNamespace("bench");
            List<String> names = populate(admin, nodes, pods);
            Path deviceConfig = Files.writeString(work.resolve("device-config.yaml"), DeployFiles.deviceConfigYaml());
            int upstreamPort = UpstreamHami.freePort();
            int oursPort = UpstreamHami.freePort();
            try (ManagedProcess upstream = UpstreamHami.scheduler(
                            "hami-upstream", plane.adminKubeconfig(), deviceConfig, upstreamPort, work, "upstream");
                    ManagedProcess ours = ours(tokenKubeconfig(plane, admin, work), deviceConfig, oursPort, work)) {
                String upstreamUrl = "http://127.0.0.1:" + upstreamPort + "/filter";
                String oursUrl = "http://127.0.0.1:" + oursPort + "/filter";
                List<Pod> pending = pending(admin);
                long started = System.nanoTime();
                awaitFits(upstreamUrl, pending.getFirst(), names, upstream);
                awaitFits(oursUrl, pending.getFirst(), names, ours);
                System.out.printf(
                        "side-by-side: both answer a fit after %.1f s%n", (System.nanoTime() - started) / 1e9);
                long upstreamPid = pid(upstreamPort);
                long oursPid = pid(oursPort);
                long[] upstreamNanos = new long[requests];
                long[] oursNanos = new long[requests];
                long upstreamCpu0 = cpuMillis(upstreamPid);
                long oursCpu0 = cpuMillis(oursPid);
                for (int i = 0; i < requests; i++) {
                    String body = body(pending.get(i % pending.size()), names);
                    // Alternate who goes first, so neither always meets a cache the other warmed.
                    if (i % 2 == 0) {
                        upstreamNanos[i] = timed(upstreamUrl, body);
                        oursNanos[i] = timed(oursUrl, body);
                    } else {
                        oursNanos[i] = timed(oursUrl, body);
                        upstreamNanos[i] = timed(upstreamUrl, body);
                    }
                }
                var up = figures(upstreamNanos, cpuMillis(upstreamPid) - upstreamCpu0, rssMiB(upstreamPid));
                var us = figures(oursNanos, cpuMillis(oursPid) - oursCpu0, rssMiB(oursPid));
                System.out.println(table(nodes, pods, up, us));
            }
        }
    }

    /** Nodes with an 8-GPU register, and bound pods holding one GPU share each, written as the protocol leaves them. */
    private static List<String> populate(KubernetesClient admin, int nodes, int pods) throws Exception {
        List<String> names = IntStream.range(0, nodes)
                .mapToObj(i -> String.format("bench-%05d", i))
                .toList();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            long t0 = System.nanoTime();
            run(
                    pool,
                    names.stream()
                            .map(n -> (Runnable)
                                    () -> admin.nodes().resource(node(n)).create())
                            .toList());
            System.out.printf("side-by-side: %d nodes in %.1f s%n", nodes, (System.nanoTime() - t0) / 1e9);
            long t1 = System.nanoTime();
            run(
                    pool,
                    IntStream.range(0, pods)
                            .mapToObj(i -> (Runnable) () -> admin.pods()
                                    .inNamespace("bench")
                                    .resource(boundPod(i, names.get(i % nodes)))
                                    .create())
                            .toList());
            System.out.printf("side-by-side: %d pods in %.1f s%n", pods, (System.nanoTime() - t1) / 1e9);
        } finally {
            pool.shutdownNow();
        }
        return names;
    }

    private static void run(ExecutorService pool, List<Runnable> tasks) throws Exception {
        List<Future<?>> done = new ArrayList<>();
        for (Runnable t : tasks) {
            done.add(pool.submit(t));
        }
        for (Future<?> f : done) {
            f.get();
        }
    }

    private static String gpuId(String node, int i) {
        return "GPU-" + node + "-" + i;
    }

    private static Node node(String name) {
        var gpus = IntStream.range(0, GPUS)
                .mapToObj(i -> new DeviceInfo(gpuId(name, i), i, 10, GPU_MIB, 100, "NVIDIA-H100", 0, "hami-core", true))
                .toArray(DeviceInfo[]::new);
        return Cluster.nvidia(name, gpus);
    }

    private static Pod boundPod(int i, String node) {
        String decision = gpuId(node, i % GPUS) + ",NVIDIA,4000,10:;";
        return new PodBuilder(Cluster.pod(
                                "bench",
                                String.format("bound-%05d", i),
                                Cluster.container(
                                        "cuda",
                                        "nvidia.com/gpu",
                                        "1",
                                        "nvidia.com/gpumem",
                                        "4000",
                                        "nvidia.com/gpucores",
                                        "10"))
                        .build())
                .editMetadata()
                .addToAnnotations(Map.of(
                        NvidiaKeys.ALLOCATED,
                        decision,
                        NvidiaKeys.TO_ALLOCATE,
                        ";",
                        ProtocolKeys.VGPU_NODE,
                        node,
                        ProtocolKeys.BIND_PHASE,
                        ProtocolKeys.PHASE_SUCCESS))
                .endMetadata()
                .editSpec()
                .withNodeName(node)
                .endSpec()
                .build();
    }

    /** Pods that kube-scheduler would ask about: alternating sizes, created so upstream's filter can patch them. */
    private static List<Pod> pending(KubernetesClient admin) {
        var out = new ArrayList<Pod>();
        for (int i = 0; i < 10; i++) {
            int mem = i % 2 == 0 ? 8000 : 30000;
            Pod pod = Cluster.pod(
                            "bench",
                            "pending-" + i,
                            Cluster.container(
                                    "cuda",
                                    "nvidia.com/gpu",
                                    "1",
                                    "nvidia.com/gpumem",
                                    String.valueOf(mem),
                                    "nvidia.com/gpucores",
                                    "20"))
                    .editSpec()
                    .withSchedulerName("bench-nobody")
                    .endSpec()
                    .build();
            out.add(admin.pods().inNamespace("bench").resource(pod).create());
        }
        return out;
    }

    /** A cluster-admin ServiceAccount's token in a kubeconfig: what a deployed scheduler authenticates with. */
    private static Path tokenKubeconfig(KubeControlPlane plane, KubernetesClient admin, Path work) {
        Config sa = plane.serviceAccountConfig("bench", "bench-scheduler");
        admin.rbac()
                .clusterRoleBindings()
                .resource(new ClusterRoleBindingBuilder()
                        .withNewMetadata()
                        .withName("bench-scheduler")
                        .endMetadata()
                        .withNewRoleRef("rbac.authorization.k8s.io", "ClusterRole", "cluster-admin")
                        .addNewSubject()
                        .withKind("ServiceAccount")
                        .withNamespace("bench")
                        .withName("bench-scheduler")
                        .endSubject()
                        .build())
                .create();
        return plane.writeKubeconfig(work.resolve("ours.kubeconfig"), sa);
    }

    private static ManagedProcess ours(Path kubeconfig, Path deviceConfig, int port, Path work) {
        var command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                "io.hami.cli.Main",
                "scheduler",
                "--kubeconfig=" + kubeconfig,
                "--http-bind=127.0.0.1:" + port,
                "--metrics-bind-address=127.0.0.1:" + UpstreamHami.freePort(),
                "--device-config-file=" + deviceConfig);
        return ManagedProcess.start("side-by-side", "ours", command, work.resolve("ours.log"), Map.of());
    }

    private static String body(Pod pod, List<String> names) {
        return "{\"Pod\":" + Serialization.asJson(pod) + ",\"NodeNames\":" + Serialization.asJson(names) + "}";
    }

    /** Waits until {@code url}'s filter passes at least one node for the pod: the scheduler has indexed the nodes. */
    private static void awaitFits(String url, Pod pod, List<String> names, ManagedProcess process) {
        String body = body(pod, names);
        org.awaitility.Awaitility.await(url + " passes a node")
                .atMost(Duration.ofMinutes(10))
                .pollInterval(Duration.ofMillis(500))
                .ignoreExceptionsInstanceOf(IOException.class)
                .failFast(process.name() + " exited", () -> !process.isAlive())
                .until(() -> {
                    var response = HTTP.send(request(url, body), HttpResponse.BodyHandlers.ofString());
                    return response.statusCode() == 200
                            && response.body().matches("(?s).*\"(NodeNames|nodenames)\"\\s*:\\s*\\[\\s*\".*");
                });
    }

    private static HttpRequest request(String url, String body) {
        return HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private static long timed(String url, String body) throws Exception {
        long t0 = System.nanoTime();
        var response = HTTP.send(request(url, body), HttpResponse.BodyHandlers.ofString());
        long t = System.nanoTime() - t0;
        if (response.statusCode() != 200) {
            throw new IllegalStateException(url + " answered " + response.statusCode() + ": " + response.body());
        }
        return t;
    }

    private static Figures figures(long[] nanos, long cpuMillis, long rssMiB) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return new Figures(
                sorted[(int) Math.floor(0.50 * (sorted.length - 1))] / 1e6,
                sorted[(int) Math.floor(0.99 * (sorted.length - 1))] / 1e6,
                (double) cpuMillis / nanos.length,
                rssMiB);
    }

    static String table(int nodes, int pods, Figures upstream, Figures ours) {
        var b = new StringBuilder();
        b.append(String.format(
                "%nside-by-side /filter, %d nodes x %d GPUs, %d bound pods (one run, same API server)%n",
                nodes, GPUS, pods));
        b.append(String.format("%-24s %12s %12s %10s%n", "figure", "upstream", "ours", "up/ours"));
        row(b, "p50 latency (ms)", upstream.p50Ms(), ours.p50Ms());
        row(b, "p99 latency (ms)", upstream.p99Ms(), ours.p99Ms());
        row(b, "CPU per request (ms)", upstream.cpuMsPerRequest(), ours.cpuMsPerRequest());
        row(b, "RSS (MiB)", upstream.rssMiB(), ours.rssMiB());
        return b.toString();
    }

    private static void row(StringBuilder b, String figure, double upstream, double ours) {
        b.append(String.format(
                "%-24s %12.2f %12.2f %10s%n",
                figure, upstream, ours, ours > 0 ? String.format("%.1fx", upstream / ours) : "-"));
    }

    /** The pid listening on {@code port} (the process itself, not a wrapper), from {@code ss}. */
    private static long pid(int port) throws Exception {
        Process ss = new ProcessBuilder("ss", "-Hltnp", "sport = :" + port).start();
        String out = new String(ss.getInputStream().readAllBytes());
        ss.waitFor();
        var m = java.util.regex.Pattern.compile("pid=(\\d+)").matcher(out);
        if (!m.find()) {
            throw new IllegalStateException("no process listens on port " + port + ": " + out);
        }
        return Long.parseLong(m.group(1));
    }

    /** utime + stime of a process, in milliseconds (clock ticks of 10 ms). */
    private static long cpuMillis(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10;
    }

    private static long rssMiB(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
            }
        }
        return -1;
    }
}
