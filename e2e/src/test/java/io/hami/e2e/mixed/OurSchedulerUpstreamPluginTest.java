package io.hami.e2e.mixed;

import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.ManagedProcess;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.MockPlugin;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.plugin.kubeletapi.Device;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our scheduler deciding, upstream HAMi's NVIDIA device plugin serving: upstream's plugin runs on our NVML C mock and
 * writes its register, our scheduler (through the real kube-scheduler) binds a pod onto it, and the plugin's Allocate,
 * called as the kubelet calls it on the socket it registered, serves our decision and finishes the protocol.
 */
@EnableKubeControlPlane
@UpstreamHami.Required
@PatientTimeout(value = 10, unit = TimeUnit.MINUTES)
class OurSchedulerUpstreamPluginTest {
    static final String NS = "e2e-mixed-ours";
    static final String NODE = "mixed-ours-gpu";
    /** Fixed by upstream's plugin (the kubelet's constant), not configurable. */
    static final Path KUBELET_PLUGIN_DIR = Path.of("/var/lib/kubelet/device-plugins");

    static KubeControlPlane plane;
    static KubernetesClient admin;
    static TestKubelet kubelet;
    static ManagedProcess upstreamPlugin;
    static HamiScheduler scheduler;
    static final CrossRun RUN = new CrossRun(
            "our-scheduler-upstream-plugin",
            "our scheduler -> upstream NVIDIA plugin (NVML mock, real kube-scheduler, Allocate as the kubelet asks)");

    @BeforeAll
    static void cluster(@TempDir Path dir) throws Exception {
        plane.ensureNamespace(NS);
        NodeLifecycle.createReady(admin, MixedPods.gpuNode(NODE, NS));

        // The driver's library where the NVIDIA container runtime puts it, under a driver root of the test's own.
        Path driverRoot = dir.resolve("driver-root");
        Path lib = Files.createDirectories(driverRoot.resolve(UpstreamHami.DRIVER_LIBS));
        try (var files = Files.list(MockPlugin.MOCKS.resolve("nvidia"))) {
            for (Path f : files.toList()) {
                if (Files.isRegularFile(f) && !Files.isSymbolicLink(f)) {
                    Files.copy(f, lib.resolve(f.getFileName()));
                }
            }
        }
        Files.createDirectories(KUBELET_PLUGIN_DIR);
        Path kubeletSocket = dir.resolve("kubelet/kubelet.sock");
        Files.createDirectories(kubeletSocket.getParent());
        kubelet = new TestKubelet(kubeletSocket, KUBELET_PLUGIN_DIR);
        Path deviceConfig = Files.writeString(dir.resolve("device-config.yaml"), DeployFiles.deviceConfigYaml());
        upstreamPlugin = UpstreamHami.nvidiaPlugin(
                NODE,
                plane.adminKubeconfig(),
                deviceConfig,
                driverRoot,
                Files.createDirectories(dir.resolve("hook")),
                kubeletSocket,
                RUN.logs());

        scheduler =
                HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("hami-scheduler"));
        scheduler.startKubeScheduler(plane, null);
    }

    @AfterAll
    static void stop() {
        try {
            RUN.publish();
            if (scheduler != null) {
                scheduler.close();
            }
            if (upstreamPlugin != null) {
                upstreamPlugin.close();
            }
            if (kubelet != null) {
                kubelet.close();
            }
        } finally {
            ClusterOps.deletePods(admin, NS);
            ClusterOps.deleteNodes(admin, List.of(NODE));
        }
    }

    @Test
    void ourDecisionIsServedByUpstreamsPlugin() throws Exception {
        String[] register = new String[1];
        RUN.step("upstream's plugin registers with the kubelet on the NVML mock", () -> {
            await("upstream plugin registered nvidia.com/gpu")
                    .atMost(MixedPods.PATIENCE)
                    .failFast("upstream's plugin exited", () -> !upstreamPlugin.isAlive())
                    .until(() -> kubelet.registered().stream()
                            .anyMatch(r -> r.getResourceName().equals("nvidia.com/gpu")));
            List<Device> devices = kubelet.devices("nvidia.com/gpu").getDevicesList();
            assertThat(devices).hasSize(20).allMatch(d -> d.getHealth().equals("Healthy"));
            return "resource nvidia.com/gpu, " + devices.size() + " kubelet devices, first "
                    + devices.getFirst().getID();
        });
        RUN.step("upstream's plugin writes a register our decoder reads", () -> {
            await("register annotation on " + NODE)
                    .atMost(MixedPods.PATIENCE)
                    .until(() -> annotations(admin.nodes().withName(NODE).get()).containsKey(NvidiaKeys.REGISTER));
            register[0] = annotations(admin.nodes().withName(NODE).get()).get(NvidiaKeys.REGISTER);
            List<DeviceInfo> gpus = JsonRegisterCodec.decode(register[0]);
            assertThat(gpus).hasSize(2).allMatch(DeviceInfo::health);
            return NvidiaKeys.REGISTER + "=" + register[0];
        });
        ClusterOps.awaitIndexed(scheduler, List.of(NODE));

        admin.pods()
                .inNamespace(NS)
                .resource(MixedPods.gpuPod(NS, "cuda", HamiScheduler.SCHEDULER_NAME, 3000, 30))
                .create();

        Map<String, String>[] decided = new Map[1];
        RUN.step("kube-scheduler binds through our extender", () -> {
            decided[0] = MixedPods.awaitBound(admin, NS, "cuda", NODE);
            assertThat(decided[0])
                    .containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING)
                    .containsEntry(ProtocolKeys.VGPU_NODE, NODE)
                    .containsKey(NvidiaKeys.TO_ALLOCATE);
            return NvidiaKeys.TO_ALLOCATE + "=" + decided[0].get(NvidiaKeys.TO_ALLOCATE) + "; node lock "
                    + annotations(admin.nodes().withName(NODE).get()).get(ProtocolKeys.NODE_LOCK);
        });
        ContainerDevice chosen = MixedPods.decided(decided[0]);
        RUN.step("upstream's Allocate (as the kubelet calls it) serves our decision", () -> {
            String id = kubelet.devices("nvidia.com/gpu").getDevicesList().stream()
                    .map(Device::getID)
                    .filter(d -> d.startsWith(chosen.uuid()))
                    .findFirst()
                    .orElseThrow();
            var envs = kubelet.allocate("nvidia.com/gpu", List.of(id))
                    .getContainerResponses(0)
                    .getEnvsMap();
            return "device " + id + "; " + MixedPods.assertHamiCoreEnv(envs, chosen);
        });
        RUN.step("upstream's plugin finishes the protocol; our scheduler still counts the pod", () -> {
            return MixedPods.assertFinished(admin, NS, "cuda", NODE, decided[0]);
        });
    }

    private static Pod pod() {
        return MixedPods.pod(admin, NS, "cuda");
    }
}
