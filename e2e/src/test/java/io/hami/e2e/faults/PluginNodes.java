package io.hami.e2e.faults;

import static io.hami.e2e.support.ClusterOps.annotations;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.ManagedProcess;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.MockPlugin;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.lab.kubelet.AllocationLog;
import io.hami.lab.kubelet.ContainerRuntime;
import io.hami.lab.kubelet.PodStatusWriter;
import io.hami.lab.kubelet.SimulatedKubelet;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.usage.ContainerWorkloads;
import io.hami.plugin.PluginApp;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.plugin.server.UnixSockets;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import tools.jackson.databind.json.JsonMapper;

/**
 * NVIDIA nodes as a cluster runs them, for the fault tests. Per node: the lab's {@link SimulatedKubelet} (the
 * Registration service, ListAndWatch, the node's {@code nvidia.com/gpu} capacity, admission of the pods bound to the
 * node one at a time with Allocate over gRPC, then the pod Running, or Failed with {@code UnexpectedAdmissionError}
 * when Allocate fails, as the kubelet's device manager does: a failed Allocate is never called again) and our NVIDIA
 * device plugin on a private copy of the NVML C mock, as deploy/'s ServiceAccount with its roles. The plugin of a node
 * named in {@code processes} runs as a process of its own ({@code hami plugin --backend nvidia} on this JVM's class
 * path, as the DaemonSet's container runs it), so that it can be killed as a crash kills it and started again, and
 * reaches kube-apiserver through a {@link SlowLink}, a plain relay until a test adds latency to it; the others run in
 * this JVM ({@link PluginApp}), which on two cores leaves more CPU to the control plane than a JVM per node.
 *
 * <p>The nodes carry the {@code hami.io/e2e} taint and a pool label; {@link Burst}'s pods tolerate the one and select
 * the other, so no other class's pod lands here and these pods land nowhere else.
 */
final class PluginNodes implements AutoCloseable {
    /** The label that ties a class's pods to its nodes. */
    static final String POOL_LABEL = "hami.io/e2e-pool";
    /** How long an admission waits for a plugin that is away before refusing the pod (the lab's is 30 s). */
    static final Duration PLUGIN_GRACE = Duration.ofSeconds(60);

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /**
     * One node: its kubelet, and its plugin either as a process with its link to the API server (the others null)
     * or in this JVM with its client.
     */
    record PluginNode(
            String name,
            SimulatedKubelet kubelet,
            ManagedProcess process,
            SlowLink link,
            PluginApp app,
            KubernetesClient client) {
        /** The plugin's process; only for a node started with one. */
        ManagedProcess plugin() {
            if (process == null) {
                throw new IllegalStateException("the plugin of " + name + " runs in this JVM, not as a process");
            }
            return process;
        }
    }

    private final KubernetesClient admin;
    private final String pool;
    private final int gpus;
    private final KubernetesClient kubeletClient;
    private final UnixSockets sockets = new UnixSockets();
    private final ContainerRuntime runtime;
    private final AllocationLog allocations = new AllocationLog();
    private final Map<String, PluginNode> nodes = new LinkedHashMap<>();
    /** Sockets live apart from the work folder: a deep checkout would push their paths past the kernel's 107 bytes. */
    private final Path socketRoot;

    private PluginNodes(KubeControlPlane plane, KubernetesClient admin, String pool, int gpus) throws IOException {
        this.socketRoot = Files.createTempDirectory("hami-dp-");
        this.admin = admin;
        this.pool = pool;
        this.gpus = gpus;
        this.kubeletClient = plane.newClient();
        this.runtime = new ContainerRuntime(new PodStatusWriter(kubeletClient), allocations, ContainerWorkloads.none());
    }

    /**
     * A work folder for one class's nodes, kept after the run (the plugins' logs): {@code target/faults/<name>-<time>}
     * of the module. The kubelet sockets live in a temporary folder of their own.
     */
    static Path workDir(String name) throws IOException {
        return Files.createDirectories(Path.of(System.getProperty("basedir", "."))
                .toAbsolutePath()
                .resolve("target/faults")
                .resolve(name + "-"
                        + LocalDateTime.now(ZoneId.systemDefault())
                                .format(DateTimeFormatter.ofPattern("MMdd-HHmmss"))));
    }

    /**
     * Creates {@code names} (each with {@code gpus} mock GPUs of {@code memMiB} MiB), starts their kubelets and
     * plugins (those of {@code processes} as processes), and returns once every node carries the plugin's register
     * value and the kubelet's capacity.
     */
    static PluginNodes start(
            KubeControlPlane plane,
            KubernetesClient admin,
            String pool,
            List<String> names,
            Set<String> processes,
            int gpus,
            int memMiB,
            Path dir)
            throws Exception {
        for (String file : List.of("namespace.yaml", "device-plugins/rbac.yaml")) {
            DeployFiles.apply(admin, file, "hami-e2e-" + pool);
        }
        Config identity = plane.serviceAccountConfig("hami-system", "hami-device-plugin");
        Path logback = Files.writeString(Files.createDirectories(dir).resolve("plugin-logback.xml"), """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n</pattern></encoder>
                  </appender>
                  <logger name="io.fabric8" level="WARN"/>
                  <logger name="io.hami" level="INFO"/>
                  <root level="WARN"><appender-ref ref="OUT"/></root>
                </configuration>
                """);
        var started = new PluginNodes(plane, admin, pool, gpus);
        try {
            for (String name : names) {
                started.add(plane, identity, name, processes.contains(name), memMiB, dir.resolve(name), logback);
            }
            started.awaitRegistered(names);
            return started;
        } catch (Exception | Error e) {
            started.close();
            throw e;
        }
    }

    private void add(
            KubeControlPlane plane, Config identity, String name, boolean process, int memMiB, Path root, Path logback)
            throws Exception {
        NodeLifecycle.createReady(
                admin,
                Cluster.node(name)
                        .editMetadata()
                        .addToLabels(POOL_LABEL, pool)
                        .endMetadata()
                        .editOrNewSpec()
                        .addToTaints(Cluster.e2eTaint(pool))
                        .endSpec()
                        .build());
        Path nvml = mockNvml(root.resolve("nvml"), name, memMiB);
        Path hostRoot = Files.createDirectories(root.resolve("host"));
        var kubelet = new SimulatedKubelet(
                kubeletClient,
                name,
                socketRoot.resolve(name),
                sockets,
                runtime,
                allocations,
                new Latencies(),
                PLUGIN_GRACE);
        kubelet.start();
        if (!process) {
            KubernetesClient client = KubeControlPlane.client(identity);
            var settings = new PluginApp.Settings(
                    "nvidia",
                    name,
                    null,
                    kubelet.pluginDir(),
                    nvml,
                    DeviceConfig.DEFAULTS,
                    Sharing.NONE,
                    HostPaths.under(hostRoot),
                    Timings.DEFAULTS);
            nodes.put(
                    name,
                    new PluginNode(
                            name, kubelet, null, null, PluginApp.start(client, settings, Clock.systemUTC()), client));
            return;
        }
        var link = new SlowLink(plane.url());
        Path kubeconfig = root.resolve("plugin.kubeconfig");
        plane.writeKubeconfig(kubeconfig, identity);
        Files.writeString(kubeconfig, Files.readString(kubeconfig).replace(plane.url(), link.url()));
        var command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xmx192m",
                "-Dlogback.configurationFile=" + logback,
                "-cp",
                System.getProperty("java.class.path"),
                "io.hami.cli.Main",
                "plugin",
                "--backend=nvidia",
                "--node-name=" + name,
                "--kubeconfig=" + kubeconfig,
                "--device-plugin-dir=" + kubelet.pluginDir(),
                "--library=" + nvml,
                "--host-root=" + hostRoot,
                "--metrics-bind-address=0");
        var plugin = ManagedProcess.start(
                "device plugin", "hami-plugin-" + name, command, root.resolve("plugin.log"), Map.of());
        nodes.put(name, new PluginNode(name, kubelet, plugin, link, null, null));
    }

    /** A private copy of the NVML mock with {@code gpus} GPUs of {@code memMiB} MiB, UUIDs unique to the node. */
    private Path mockNvml(Path dir, String node, int memMiB) throws IOException {
        Files.createDirectories(dir);
        Path built = MockPlugin.MOCKS.resolve("nvidia").resolve("libnvidia-ml.so.1");
        if (!Files.isRegularFile(built)) {
            throw new IllegalStateException(
                    "no NVML mock at " + built + ": build it with ./mvnw -pl hardware-mocks install");
        }
        Files.copy(built, dir.resolve("libnvidia-ml.so.1"));
        var devices = new ArrayList<Map<String, Object>>();
        for (int i = 0; i < gpus; i++) {
            var d = new LinkedHashMap<String, Object>();
            d.put("uuid", uuid(node, i));
            d.put("name", "NVIDIA A10");
            d.put("memoryMiB", memMiB);
            d.put("numaNode", 0);
            d.put("pciBusId", String.format("00000000:%02X:00.0", i + 1));
            d.put("minor", i);
            d.put("healthy", true);
            devices.add(d);
        }
        Files.writeString(dir.resolve("devices.json"), JSON.writeValueAsString(Map.of("devices", devices)));
        return dir;
    }

    static String uuid(String node, int index) {
        return "GPU-" + UUID.nameUUIDFromBytes((node + "/" + index).getBytes(StandardCharsets.UTF_8));
    }

    private void awaitRegistered(List<String> names) {
        await("the plugins of " + names + " registered their GPUs")
                .atMost(Patience.seconds(90))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    for (String name : names) {
                        if (nodes.get(name).process() != null) {
                            nodes.get(name).process().checkAlive();
                        }
                        if (!registered(admin.nodes().withName(name).get())) {
                            return false;
                        }
                    }
                    return true;
                });
    }

    /** The plugin's register value names every GPU and the kubelet reports every one of them allocatable. */
    private boolean registered(Node node) throws Exception {
        String register = annotations(node).get(NvidiaKeys.REGISTER);
        Quantity allocatable = node.getStatus().getAllocatable().get("nvidia.com/gpu");
        return register != null
                && JsonRegisterCodec.decode(register).size() == gpus
                && allocatable != null
                && allocatable.getNumericalAmount().intValue() == gpus * 10;
    }

    /**
     * Whether the plugin process of {@code name} has registered with the kubelet since it was last started: its log
     * says so after the line {@link ManagedProcess#restart} wrote.
     */
    boolean registeredSinceRestart(String name) throws IOException {
        String log = Files.readString(nodes.get(name).plugin().log());
        int restart = log.lastIndexOf("started again at");
        return restart >= 0 && log.indexOf(": registered with the kubelet on ", restart) >= 0;
    }

    List<String> names() {
        return List.copyOf(nodes.keySet());
    }

    PluginNode node(String name) {
        return nodes.get(name);
    }

    /** Every Allocate answer the kubelets received, by pod UID. */
    AllocationLog allocations() {
        return allocations;
    }

    /** Sets the latency of every plugin process's link to the API server. */
    void latency(Duration latency) {
        nodes.values().stream()
                .filter(n -> n.link() != null)
                .forEach(n -> n.link().latency(latency));
    }

    @Override
    public void close() {
        for (PluginNode n : nodes.values()) {
            try {
                if (n.process() != null) {
                    n.process().close();
                    n.link().close();
                } else {
                    n.app().close();
                    n.client().close();
                }
            } catch (IOException | RuntimeException e) {
                // keep closing the rest
            }
            try {
                n.kubelet().close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        runtime.close();
        sockets.close();
        kubeletClient.close();
        ClusterOps.deleteNodes(admin, nodes.keySet());
        try (var tree = Files.walk(socketRoot)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a left-over temporary folder, nothing more
        }
    }
}
