package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.monitor.MonitorService;
import io.hami.monitor.MonitorSettings;
import io.hami.plugin.PluginApp;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.ContainerAllocateRequest;
import io.hami.plugin.kubeletapi.DevicePluginGrpc;
import io.hami.plugin.server.UnixSockets;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.leader.LeaderMode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The device plugins' RBAC against the API calls the real plugins make. An NVIDIA plugin and an HCU plugin run on the
 * mock vendor libraries against the embedded API server through a recording client: the register loop publishes the
 * inventory, the HCU plugin answers the scheduler's handshake, and a pod that the real scheduler bound is allocated
 * over the plugin's gRPC socket, which consumes its entry, finishes the pod and releases the node lock; a second
 * Allocate, which a pod without a decision makes unattributable, is refused with events on the pods. Every
 * recorded call must be allowed by the roles of the DaemonSets' ServiceAccount, and every permission used. The
 * NVIDIA DaemonSet's node monitor runs alongside on the same client (its informer of the node's pods).
 */
class PluginRbacTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Path MOCKS = DockerfilesTest.REPOSITORY.resolve("hardware-mocks/target/native");
    private static final Timings FAST = new Timings(
            Duration.ofMillis(300),
            Duration.ofMillis(100),
            Duration.ofMillis(100),
            Duration.ofMillis(50),
            Duration.ofMillis(300),
            Duration.ofMillis(200),
            Duration.ofMillis(200));
    private static final Manifests MANIFESTS = Manifests.load();

    private static final RecordingClient RECORDER = new RecordingClient();

    @TempDir
    static Path root;

    /** A private copy of one vendor's mock library with its example devices, as a node of its own. */
    private static Path mock(String vendor) throws IOException {
        Path built = MOCKS.resolve(vendor);
        assertThat(built.resolve("devices.json"))
                .as("mock libraries, built by ./mvnw -pl hardware-mocks install")
                .exists();
        Path dir = Files.createDirectories(root.resolve("mock-" + vendor));
        try (var files = Files.list(built)) {
            for (Path f : files.toList()) {
                if (!Files.isSymbolicLink(f)) {
                    Files.copy(f, dir.resolve(f.getFileName()));
                }
            }
        }
        return dir;
    }

    private static PluginApp.Settings settings(String backend, String node) throws IOException {
        Path nodeRoot = root.resolve(node);
        return new PluginApp.Settings(
                backend,
                node,
                null,
                Files.createDirectories(nodeRoot.resolve("device-plugins")),
                mock(backend),
                DeviceConfig.DEFAULTS,
                Sharing.NONE,
                HostPaths.under(nodeRoot),
                FAST);
    }

    /** The NVIDIA node's monitor, as the DaemonSet's second container runs it, on the plugin's host folder. */
    private static MonitorSettings monitorSettings(PluginApp.Settings plugin) {
        return new MonitorSettings(
                plugin.paths().vgpuDir(),
                plugin.nodeName(),
                MonitorSettings.DEFAULT_RESYNC,
                Duration.ofMillis(200),
                new InetSocketAddress("127.0.0.1", 0),
                false,
                plugin.library().resolve("libnvidia-ml.so.1"),
                "test");
    }

    @BeforeAll
    static void runThePlugins() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient admin = server.newClient();
                KubernetesClient recorded = RECORDER.connect(server)) {
            for (String node : List.of("gpu-1", "hcu-1")) {
                admin.nodes()
                        .resource(new NodeBuilder()
                                .withNewMetadata()
                                .withName(node)
                                .endMetadata()
                                .build())
                        .create();
            }
            PluginApp.Settings nvidiaSettings = settings("nvidia", "gpu-1");
            try (PluginApp nvidia = PluginApp.start(recorded, nvidiaSettings, Clock.systemUTC());
                    PluginApp hcu = PluginApp.start(recorded, settings("hygon", "hcu-1"), Clock.systemUTC());
                    MonitorService monitor = MonitorService.start(monitorSettings(nvidiaSettings), recorded)) {
                await().atMost(Patience.seconds(20))
                        .until(() -> annotation(admin, "gpu-1", "hami.io/node-nvidia-register") != null
                                && annotation(admin, "hcu-1", "hami.io/node-hcu-register") != null);
                // The scheduler asks the HCU plugin for a handshake; the plugin answers.
                admin.nodes()
                        .withName("hcu-1")
                        .edit(n -> new NodeBuilder(n)
                                .editMetadata()
                                .addToAnnotations("hami.io/node-handshake-hcu", "Requesting_2026-01-01 00:00:00")
                                .endMetadata()
                                .build());
                await().atMost(Patience.seconds(20))
                        .until(() -> annotation(admin, "hcu-1", "hami.io/node-handshake-hcu")
                                .startsWith("Reported_"));
                allocateAPodTheSchedulerBound(admin, nvidia, nvidiaSettings.devicePluginDir());
                // The NVIDIA DaemonSet's monitor: its informer of the node's pods lists, then watches.
                await().atMost(Patience.seconds(20))
                        .until(() -> RECORDER.accesses().stream()
                                .anyMatch(a ->
                                        a.verb().equals("watch") && a.resource().equals("pods")));
            }
        }
    }

    /** The real scheduler binds a pod to gpu-1; the kubelet's Allocate call follows on the plugin's socket. */
    private static void allocateAPodTheSchedulerBound(KubernetesClient admin, PluginApp nvidia, Path devicePluginDir)
            throws Exception {
        admin.nodes()
                .withName("gpu-1")
                .edit(n -> new NodeBuilder(n)
                        .editStatus()
                        .addToAllocatable("nvidia.com/gpu", new Quantity("20"))
                        .endStatus()
                        .build());
        var settings = new SchedulerApp.Settings(
                new SchedulerApp.Settings.Http(new InetSocketAddress("127.0.0.1", 0)),
                new SchedulerApp.Settings.Scheduling(
                        "hami-scheduler",
                        SchedulingPolicy.UPSTREAM_DEFAULTS,
                        Duration.ofMinutes(5),
                        DeviceConfig.DEFAULTS),
                new SchedulerApp.Settings.Replica(new LeaderMode.Always(), Duration.ofHours(1)),
                new SchedulerApp.Settings.Metrics(null, "test"));
        try (SchedulerApp scheduler = SchedulerApp.start(admin, settings, new PrometheusRegistry(), Clock.systemUTC());
                UnixSockets sockets = new UnixSockets();
                var http = HttpClient.newHttpClient()) {
            await().atMost(Patience.seconds(20))
                    .until(() -> scheduler.index().nodeNames().contains("gpu-1"));
            Pod pod = admin.pods()
                    .inNamespace("team-a")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withName("train")
                            .withNamespace("team-a")
                            .endMetadata()
                            .withNewSpec()
                            .withSchedulerName("hami-scheduler")
                            .withContainers(new ContainerBuilder()
                                    .withName("main")
                                    .withImage("cuda")
                                    .withNewResources()
                                    .withLimits(Map.of(
                                            "nvidia.com/gpu",
                                            new Quantity("1"),
                                            "nvidia.com/gpumem",
                                            new Quantity("4000")))
                                    .endResources()
                                    .build())
                            .endSpec()
                            .build())
                    .create();
            var bind = http.send(
                    HttpRequest.newBuilder(URI.create(
                                    "http://127.0.0.1:" + scheduler.address().getPort() + "/bind"))
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"PodName\":\"train\",\"PodNamespace\":\"team-a\",\"PodUID\":\""
                                            + pod.getMetadata().getUid() + "\",\"Node\":\"gpu-1\"}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(JSON.readTree(bind.body()).path("Error").asString())
                    .as(bind.body())
                    .isEmpty();

            String gpu = admin.pods()
                    .inNamespace("team-a")
                    .withName("train")
                    .get()
                    .getMetadata()
                    .getAnnotations()
                    .get("hami.io/vgpu-devices-allocated")
                    .split(",")[0];
            var resource = nvidia.vendor().resources().getFirst();
            var channel = sockets.channel(devicePluginDir.resolve(resource.socketName()));
            try {
                DevicePluginGrpc.newBlockingStub(channel)
                        .withDeadlineAfter(Patience.seconds(30))
                        .allocate(AllocateRequest.newBuilder()
                                .addContainerRequests(
                                        ContainerAllocateRequest.newBuilder().addDevicesIds(gpu + "-0"))
                                .build());
            } finally {
                channel.shutdownNow();
            }
            assertThat(admin.pods()
                            .inNamespace("team-a")
                            .withName("train")
                            .get()
                            .getMetadata()
                            .getAnnotations())
                    .containsEntry("hami.io/bind-phase", "success");
            assertThat(annotation(admin, "gpu-1", "hami.io/mutex.lock"))
                    .as("released")
                    .isNull();

            refuseAnAllocateThatCannotBeAttributed(
                    admin, scheduler, http, devicePluginDir.resolve(resource.socketName()), sockets, gpu);
        }
    }

    /**
     * A second pod is bound by the scheduler while a pod without a decision asks for the same resource on the node:
     * the plugin refuses the Allocate and writes a Warning event on both pods.
     */
    private static void refuseAnAllocateThatCannotBeAttributed(
            KubernetesClient admin,
            SchedulerApp scheduler,
            HttpClient http,
            Path socket,
            UnixSockets sockets,
            String gpu)
            throws Exception {
        admin.pods()
                .inNamespace("team-a")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("no-decision")
                        .withNamespace("team-a")
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName("gpu-1")
                        .withContainers(new ContainerBuilder()
                                .withName("main")
                                .withImage("cuda")
                                .withNewResources()
                                .withLimits(Map.of("nvidia.com/gpu", new Quantity("1")))
                                .endResources()
                                .build())
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Pending")
                        .endStatus()
                        .build())
                .create();
        Pod second = admin.pods()
                .inNamespace("team-a")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withName("train-2")
                        .withNamespace("team-a")
                        .endMetadata()
                        .withNewSpec()
                        .withSchedulerName("hami-scheduler")
                        .withContainers(new ContainerBuilder()
                                .withName("main")
                                .withImage("cuda")
                                .withNewResources()
                                .withLimits(Map.of(
                                        "nvidia.com/gpu", new Quantity("1"), "nvidia.com/gpumem", new Quantity("4000")))
                                .endResources()
                                .build())
                        .endSpec()
                        .build())
                .create();
        var bind = http.send(
                HttpRequest.newBuilder(URI.create(
                                "http://127.0.0.1:" + scheduler.address().getPort() + "/bind"))
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"PodName\":\"train-2\",\"PodNamespace\":\"team-a\",\"PodUID\":\""
                                        + second.getMetadata().getUid() + "\",\"Node\":\"gpu-1\"}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(JSON.readTree(bind.body()).path("Error").asString())
                .as(bind.body())
                .isEmpty();
        var channel = sockets.channel(socket);
        try {
            var stub = DevicePluginGrpc.newBlockingStub(channel).withDeadlineAfter(Patience.seconds(30));
            var request = AllocateRequest.newBuilder()
                    .addContainerRequests(ContainerAllocateRequest.newBuilder().addDevicesIds(gpu + "-1"))
                    .build();
            assertThatThrownBy(() -> stub.allocate(request)).hasMessageContaining("without a decision");
        } finally {
            channel.shutdownNow();
        }
        await().atMost(Patience.seconds(20))
                .until(() -> admin.v1().events().inNamespace("team-a").list().getItems().stream()
                                .filter(e -> "AllocationAmbiguous".equals(e.getReason()))
                                .count()
                        == 2);
    }

    private static String annotation(KubernetesClient client, String node, String key) {
        Map<String, String> a =
                client.nodes().withName(node).get().getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    private static List<Rbac.Grant> grants() {
        var serviceAccounts = new ArrayList<String>();
        String namespace = null;
        for (JsonNode ds : MANIFESTS.ofKind("DaemonSet")) {
            serviceAccounts.add(ds.path("spec")
                    .path("template")
                    .path("spec")
                    .path("serviceAccountName")
                    .asString());
            namespace = Manifests.namespace(ds);
        }
        assertThat(serviceAccounts).hasSize(4).containsOnly(serviceAccounts.getFirst());
        return new Rbac(MANIFESTS).grants(namespace, serviceAccounts.getFirst(), "device-plugin");
    }

    @Test
    void everyCallThePluginsMakeIsAllowed() {
        assertThat(RECORDER.accesses()).as("recorded calls").isNotEmpty();
        assertThat(Rbac.denied(grants(), RECORDER.accesses()))
                .as("calls the plugins' roles do not allow")
                .isEmpty();
    }

    @Test
    void everyPermissionOfThePluginsIsUsed() {
        assertThat(Rbac.unused(grants(), RECORDER.accesses()))
                .as("permissions no recorded call used")
                .isEmpty();
    }

    @Test
    void thePluginsMakeNoNonResourceRequests() {
        assertThat(RECORDER.nonResourceRequests()).isEmpty();
    }
}
