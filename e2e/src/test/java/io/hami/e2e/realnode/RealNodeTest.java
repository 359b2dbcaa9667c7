package io.hami.e2e.realnode;

import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.MockPlugin;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * The default scenario on a real node (issue 15): the real kubelet of the pinned release with Debian's containerd and
 * runc on this machine. Our NVIDIA plugin runs from the build's image as the DaemonSet's pod (NVML is the C mock),
 * registers with the kubelet, the node shows {@code nvidia.com/gpu}, a user's pod goes through the real kube-scheduler
 * and our extender, the kubelet calls the plugin's Allocate, and the container containerd starts shows the env and
 * mounts the plugin returned. HAMi-core's {@code libvgpu.so} is the image's stand-in, installed by the DaemonSet's
 * init container.
 *
 * <p>On by default ({@code -Dreal.node=false} turns it off): it needs root, {@code scripts/install-node-deps.sh} and
 * the kubelet ({@code scripts/kubelet.sh}, built on first use when Go is there); skipped, with what is missing, when
 * the machine cannot run a node.
 */
@EnableKubeControlPlane
@DisabledIfSystemProperty(
        named = "real.node",
        matches = "false",
        disabledReason = "-Dreal.node=false: no real kubelet, containerd and runc on this machine")
@PatientTimeout(value = 10, unit = TimeUnit.MINUTES)
class RealNodeTest {
    static final String NS = "e2e-real-node";
    static final String NODE = "hami-real-node";
    /** The start of the image's libvgpu.so (deploy's ImageBuild: HAMi-core is not available to the build). */
    static final String LIBVGPU_STAND_IN = "stand-in for HAMi-core's libvgpu.so";

    static final String PLUGIN_POD = "hami-device-plugin-nvidia";
    /** Where the NVIDIA container runtime mounts the driver's libraries in a Debian image. */
    static final String LIBS = "/usr/lib/x86_64-linux-gnu/";

    static final String MOCK_GPU_0 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";
    static final String MOCK_GPU_1 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000001";
    /** The name in the build's image archive (deploy/'s DaemonSet names the same). */
    static final String PLUGIN_IMAGE = "hami-java/device-plugin-nvidia:0.1.0";

    static KubeControlPlane plane;
    static KubernetesClient admin;
    static Path dir;
    static RealNode node;

    @BeforeAll
    static void startNode() throws Exception {
        var missing = RealNode.missing();
        assumeThat(missing).as("this machine cannot run a real node").isEmpty();
        dir = DeployFiles.ROOT.resolve("e2e/target/real-node/"
                + LocalDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        plane.ensureNamespace(NS);
        admin.pods().inNamespace(NS).withGracePeriod(0).delete(); // a failed earlier run's
        node = RealNode.start(plane, admin, NODE, dir.resolve("node"));
        System.out.println("[real-node] node " + NODE + " Ready "
                + node.readyAfter().toMillis() + " ms after the kubelet started");
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    /** The pod on the real node: Succeeded (or Failed, with the kubelet's last lines) within 3 minutes. */
    private static Pod awaitCompleted(String name) {
        Pod done = await(name + " ran to completion on the real node")
                .atMost(Patience.seconds(180))
                .pollInterval(Duration.ofMillis(250))
                .until(
                        () -> admin.pods().inNamespace(NS).withName(name).get(),
                        p -> p.getStatus() != null
                                && List.of("Succeeded", "Failed")
                                        .contains(p.getStatus().getPhase()));
        assertThat(done.getStatus().getPhase())
                .as("%s's phase; kubelet log:%n%s", name, node.kubeletLogTail(40))
                .isEqualTo("Succeeded");
        return done;
    }

    private static void deleteAndAwaitGone(String name) {
        admin.pods().inNamespace(NS).withName(name).delete();
        await("the kubelet removed " + name)
                .atMost(Patience.seconds(60))
                .until(() -> admin.pods().inNamespace(NS).withName(name).get() == null);
    }

    /**
     * The NVIDIA DaemonSet's pod on the real node, from the build's image ({@code deploy/target/images}) with the
     * image's entry point: the init container installs HAMi-core, the plugin registers with the kubelet, our
     * scheduler decides through the real kube-scheduler, the kubelet calls the plugin's Allocate, and the user's
     * container shows the env and mounts it returned.
     */
    @Test
    void theRealKubeletAllocatesThroughThePluginImage() throws Exception {
        Path archive = DeployFiles.ROOT.resolve("deploy/target/images/device-plugin-nvidia.tar");
        assumeThat(archive)
                .as("the build's plugin image (./mvnw -pl deploy -am package)")
                .isRegularFile();
        long t0 = System.nanoTime();
        node.importImage(archive, PLUGIN_IMAGE);
        System.out.println("[real-node] imported " + archive.getFileName() + " (" + Files.size(archive) / (1024 * 1024)
                + " MiB) in " + (System.nanoTime() - t0) / 1_000_000 + " ms");

        // The plugin's ServiceAccount and roles as deployed; its token in a kubeconfig on a hostPath (no
        // ServiceAccount token volumes: no kube-controller-manager here to publish the root CA's ConfigMap).
        for (String file : List.of("namespace.yaml", "device-plugins/rbac.yaml")) {
            DeployFiles.apply(admin, file, "hami-e2e-real-node");
        }
        Path kube = Files.createDirectories(dir.resolve("kube"));
        plane.writeKubeconfig(
                kube.resolve("kubeconfig"), plane.serviceAccountConfig("hami-system", "hami-device-plugin"));
        Path config = Files.createDirectories(dir.resolve("config"));
        Files.writeString(config.resolve("device-config.yaml"), DeployFiles.deviceConfigYaml());
        Path host = Files.createDirectories(dir.resolve("host"));

        t0 = System.nanoTime();
        admin.pods()
                .inNamespace(NS)
                .resource(pluginPod(host, kube, config, mockLibrary(dir)))
                .create();
        // The kubelet's device manager: 2 mock GPUs x 10 shares, after the plugin registered with it.
        Node withGpus = await("nvidia.com/gpu on the node")
                .atMost(Patience.seconds(120))
                .pollInterval(Duration.ofMillis(200))
                .failFast("the plugin pod ended", () -> {
                    Pod p = admin.pods().inNamespace(NS).withName(PLUGIN_POD).get();
                    return p != null
                            && p.getStatus() != null
                            && List.of("Succeeded", "Failed")
                                    .contains(p.getStatus().getPhase());
                })
                .until(
                        () -> admin.nodes().withName(NODE).get(),
                        n -> new Quantity("20")
                                        .equals(n.getStatus().getAllocatable().get("nvidia.com/gpu"))
                                && annotations(n).containsKey("hami.io/node-nvidia-register"));
        System.out.println("[real-node] plugin pod created -> nvidia.com/gpu on the node in "
                + (System.nanoTime() - t0) / 1_000_000 + " ms");
        assertThat(withGpus.getStatus().getCapacity().get("nvidia.com/gpu")).isEqualTo(new Quantity("20"));
        assertThat(annotations(withGpus).get("hami.io/node-nvidia-register")).contains(MOCK_GPU_0, MOCK_GPU_1);
        Pod plugin = admin.pods().inNamespace(NS).withName(PLUGIN_POD).get();
        assertThat(plugin.getStatus().getPhase()).isEqualTo("Running");
        assertThat(Files.readString(host.resolve("usr/local/vgpu/libvgpu.so")))
                .as("HAMi-core from the image, installed by the init container")
                .startsWith(LIBVGPU_STAND_IN);

        try (var scheduler =
                HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("scheduler"))) {
            await("scheduler indexed " + NODE)
                    .atMost(Patience.seconds(30))
                    .until(() -> scheduler.app().index().nodeNames().contains(NODE));
            scheduler.startKubeScheduler(plane, null);

            admin.pods().inNamespace(NS).resource(cudaPod()).create();
            Pod done = awaitCompleted("cuda");

            // Our scheduler's decision, served by the plugin's Allocate (called by the real kubelet).
            Map<String, String> a = annotations(done);
            assertThat(done.getSpec().getNodeName()).isEqualTo(NODE);
            assertThat(a)
                    .containsEntry(ProtocolKeys.VGPU_NODE, NODE)
                    .containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_SUCCESS);
            String gpu = a.get("hami.io/vgpu-devices-allocated").split(",", -1)[0];
            assertThat(gpu).isIn(MOCK_GPU_0, MOCK_GPU_1);
            assertThat(annotations(admin.nodes().withName(NODE).get()))
                    .as("node lock released by the plugin's Allocate")
                    .doesNotContainKey(ProtocolKeys.NODE_LOCK);

            // What the container saw: the plugin's env and mounts, set up by containerd and runc.
            List<String> log = node.containerLog(NS, "cuda", done.getMetadata().getUid(), "cuda");
            System.out.println("[real-node] container output:\n  " + String.join("\n  ", log));
            assertThat(log)
                    .contains(
                            "NVIDIA_VISIBLE_DEVICES=" + gpu,
                            "CUDA_DEVICE_MEMORY_LIMIT_0=3000m",
                            "CUDA_DEVICE_SM_LIMIT=30",
                            "ld.so.preload: /usr/local/vgpu/libvgpu.so")
                    .anyMatch(l -> l.startsWith("libvgpu.so: " + LIBVGPU_STAND_IN))
                    .anyMatch(l ->
                            l.startsWith("CUDA_DEVICE_MEMORY_SHARED_CACHE=/usr/local/vgpu/") && l.endsWith(".cache"));
            List<String> mountPoints = log.stream()
                    .map(l -> l.split(" ", -1))
                    .filter(f -> f.length >= 4)
                    .map(f -> f[1])
                    .toList();
            assertThat(mountPoints)
                    .contains("/usr/local/vgpu", "/usr/local/vgpu/libvgpu.so", "/etc/ld.so.preload", "/tmp/vgpulock");
            try (var caches = Files.list(host.resolve("usr/local/vgpu/containers"))) {
                assertThat(caches.map(p -> p.getFileName().toString()))
                        .as("the per-container cache folder the plugin's Allocate made on the host")
                        .containsExactly(done.getMetadata().getUid() + "_cuda");
            }
            deleteAndAwaitGone("cuda");
        }
        List<String> pluginLog =
                node.containerLog(NS, PLUGIN_POD, plugin.getMetadata().getUid(), "device-plugin");
        System.out.println("[real-node] plugin container (first lines):\n  "
                + String.join("\n  ", pluginLog.subList(0, Math.min(15, pluginLog.size()))));
        deleteAndAwaitGone(PLUGIN_POD);
    }

    /**
     * The DaemonSet's pod template on this node: its init container and plugin container with the image's entry
     * point, the DaemonSet's args, env and security context. What the cluster would provide differently: the host
     * network (the API server listens on loopback), the API credentials as a kubeconfig file, NVML as the C mock
     * (and the cJSON it links) mounted where the NVIDIA container runtime puts the driver's library, and HAMi-core's
     * folders under the work folder, mounted at the same path (the DaemonSet's identity mounts) with
     * {@code --host-root} pointing there, so a run leaves the machine's {@code /usr/local/vgpu} alone.
     */
    private static Pod pluginPod(Path host, Path kube, Path config, Path mock) throws Exception {
        String vgpu = host.resolve("usr/local/vgpu").toString();
        String vgpulock = host.resolve("tmp/vgpulock").toString();
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName(PLUGIN_POD)
                .endMetadata()
                .withNewSpec()
                .withNodeName(NODE)
                .withHostNetwork(true)
                .withRestartPolicy("Never")
                .withAutomountServiceAccountToken(false)
                .addNewToleration()
                .withKey(RealNode.TAINT)
                .withOperator("Exists")
                .withEffect("NoSchedule")
                .endToleration()
                .addNewInitContainer()
                .withName("install-hami-core")
                .withImage(PLUGIN_IMAGE)
                .withImagePullPolicy("Never")
                .withCommand("/bin/sh", "/opt/hami/bin/install-hami-core.sh", "/opt/hami/vgpu", vgpu)
                .withNewSecurityContext()
                .withNewCapabilities()
                .withDrop("ALL")
                .withAdd("DAC_OVERRIDE")
                .endCapabilities()
                .endSecurityContext()
                .addNewVolumeMount()
                .withName("vgpu")
                .withMountPath(vgpu)
                .endVolumeMount()
                .endInitContainer()
                .addNewContainer()
                .withName("device-plugin")
                .withImage(PLUGIN_IMAGE)
                .withImagePullPolicy("Never")
                .withArgs(
                        "--device-config-file=/etc/hami/config/device-config.yaml",
                        "--kubeconfig=/etc/hami/kube/kubeconfig",
                        "--host-root=" + host,
                        "--metrics-bind-address=127.0.0.1:0")
                .addNewEnv()
                .withName("NODE_NAME")
                .withNewValueFrom()
                .withNewFieldRef()
                .withFieldPath("spec.nodeName")
                .endFieldRef()
                .endValueFrom()
                .endEnv()
                .addNewEnv()
                .withName("JDK_JAVA_OPTIONS")
                .withValue("-Xmx128m")
                .endEnv()
                .addNewEnv()
                .withName("HAMI_MOCK_DEVICES")
                .withValue("/run/hami-mock/devices.json")
                .endEnv()
                .withNewSecurityContext()
                .withAllowPrivilegeEscalation(false)
                .withReadOnlyRootFilesystem(true)
                .withNewCapabilities()
                .withDrop("ALL")
                .withAdd("DAC_OVERRIDE", "FOWNER")
                .endCapabilities()
                .endSecurityContext()
                .addNewVolumeMount()
                .withName("device-plugins")
                .withMountPath(RealNode.DEVICE_PLUGINS.toString())
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("tmp")
                .withMountPath("/tmp")
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("vgpu")
                .withMountPath(vgpu)
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("vgpulock")
                .withMountPath(vgpulock)
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("device-config")
                .withMountPath("/etc/hami/config")
                .withReadOnly(true)
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("kube")
                .withMountPath("/etc/hami/kube")
                .withReadOnly(true)
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("nvml")
                .withMountPath(LIBS + "libnvidia-ml.so.1")
                .withReadOnly(true)
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("cjson")
                .withMountPath(LIBS + "libcjson.so.1")
                .withReadOnly(true)
                .endVolumeMount()
                .addNewVolumeMount()
                .withName("mock")
                .withMountPath("/run/hami-mock")
                .endVolumeMount()
                .endContainer()
                .addToVolumes(hostPath("device-plugins", RealNode.DEVICE_PLUGINS.toString(), "Directory"))
                .addToVolumes(hostPath("vgpu", vgpu, "DirectoryOrCreate"))
                .addToVolumes(hostPath("vgpulock", vgpulock, "DirectoryOrCreate"))
                .addToVolumes(hostPath("device-config", config.toString(), "Directory"))
                .addToVolumes(hostPath("kube", kube.toString(), "Directory"))
                .addToVolumes(hostPath("nvml", mock.resolve("libnvidia-ml.so.1").toString(), "File"))
                // The mock's own dependency; a real libnvidia-ml.so.1 links only glibc.
                .addToVolumes(hostPath(
                        "cjson", Path.of(LIBS, "libcjson.so.1").toRealPath().toString(), "File"))
                .addToVolumes(hostPath("mock", mock.toString(), "Directory"))
                .addNewVolume()
                .withName("tmp")
                .withNewEmptyDir()
                .endEmptyDir()
                .endVolume()
                .endSpec()
                .build();
    }

    private static Volume hostPath(String name, String path, String type) {
        return new VolumeBuilder()
                .withName(name)
                .withNewHostPath()
                .withPath(path)
                .withType(type)
                .endHostPath()
                .build();
    }

    /** A private copy of the NVML C mock with its two A100s. */
    private static Path mockLibrary(Path dir) throws Exception {
        Path built = MockPlugin.MOCKS.resolve("nvidia");
        if (!Files.isRegularFile(built.resolve("devices.json"))) {
            throw new IllegalStateException(
                    "no mock library in " + built + ": build it with ./mvnw -pl hardware-mocks install");
        }
        Path copy = Files.createDirectories(dir.resolve("mock-nvidia"));
        try (var files = Files.list(built)) {
            for (Path f : files.toList()) {
                if (Files.isRegularFile(f)) {
                    Files.copy(f, copy.resolve(f.getFileName()));
                }
            }
        }
        return copy;
    }

    /** A user's pod for our scheduler: one GPU share of 3000 MiB and 30 % of its cores; prints what it sees. */
    private static Pod cudaPod() {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace(NS)
                .withName("cuda")
                .endMetadata()
                .withNewSpec()
                .withSchedulerName(HamiScheduler.SCHEDULER_NAME)
                .withRestartPolicy("Never")
                .withAutomountServiceAccountToken(false)
                .addNewToleration()
                .withKey(RealNode.TAINT)
                .withOperator("Exists")
                .withEffect("NoSchedule")
                .endToleration()
                .addNewContainer()
                .withName("cuda")
                .withImage(RealNode.IMAGE)
                .withImagePullPolicy("Never")
                .withCommand(
                        "/bin/sh",
                        "-c",
                        "env; cat /proc/mounts; echo \"libvgpu.so: $(cat /usr/local/vgpu/libvgpu.so)\";"
                                + " echo \"ld.so.preload: $(cat /etc/ld.so.preload)\"")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .addToLimits("nvidia.com/gpumem", new Quantity("3000"))
                .addToLimits("nvidia.com/gpucores", new Quantity("30"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }
}
