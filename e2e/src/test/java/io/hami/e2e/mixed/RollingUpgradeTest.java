package io.hami.e2e.mixed;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.KubeSchedulerProcess;
import io.hami.controlplane.ManagedProcess;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.MockPlugin;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling upgrade of the scheduler, upstream HAMi's to ours and back, over a node our NVIDIA plugin serves (2 mock
 * GPUs of 40960 MiB): pods each scheduler decided stay on the node, with their annotations, while the other decides,
 * and neither counts a device twice or misses the other's use. Each pod takes 30000 MiB, so a third one on a card
 * would overcommit it.
 */
@EnableKubeControlPlane
@UpstreamHami.Required
@PatientTimeout(value = 12, unit = TimeUnit.MINUTES)
class RollingUpgradeTest {
    static final String NS = "e2e-mixed-roll";
    static final String NODE = "mixed-roll-gpu";
    static final String UPSTREAM = "hami-upstream-roll";
    static final int BIG = 30000;

    static KubeControlPlane plane;
    static KubernetesClient admin;
    static MockPlugin plugin;
    static Path dir;
    static Path deviceConfig;
    static int register;
    static final CrossRun RUN = new CrossRun(
            "rolling-upgrade", "rolling upgrade upstream -> ours -> upstream (our NVIDIA plugin, 2 x 40960 MiB)");

    @BeforeAll
    static void cluster(@TempDir Path tmp) throws Exception {
        dir = tmp;
        plane.ensureNamespace(NS);
        NodeLifecycle.createReady(admin, MixedPods.gpuNode(NODE, NS));
        plugin = MockPlugin.start(admin, "nvidia", NODE, DeviceConfig.DEFAULTS, dir.resolve("plugin"));
        deviceConfig = Files.writeString(dir.resolve("device-config.yaml"), DeployFiles.deviceConfigYaml());
    }

    @AfterAll
    static void stop() {
        try {
            RUN.publish();
            if (plugin != null) {
                plugin.close();
            }
        } finally {
            ClusterOps.deletePods(admin, NS);
            ClusterOps.deleteNodes(admin, List.of(NODE));
        }
    }

    @Test
    void neitherSchedulerDoubleCountsTheOthersDevices() throws Exception {
        ContainerDevice[] first = new ContainerDevice[1];
        try (var upstream = new Upstream("upstream-scheduler-roll-1")) {
            RUN.step("upstream decides u1 (30000 MiB); our plugin serves it", () -> {
                first[0] = bindAndServe("u1", UPSTREAM);
                return "u1 on " + first[0].uuid() + "; " + usage();
            });
        }
        try (var ours = HamiScheduler.start(
                plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("hami-scheduler"))) {
            ours.startKubeScheduler(plane, null);
            RUN.step("ours decides o1 (30000 MiB) onto the other GPU: upstream's u1 is counted", () -> {
                ContainerDevice o1 = bindAndServe("o1", HamiScheduler.SCHEDULER_NAME);
                assertThat(o1.uuid()).isNotEqualTo(first[0].uuid());
                return "o1 on " + o1.uuid() + "; " + usage();
            });
            RUN.step("ours refuses o2 (30000 MiB): both GPUs hold 30000 of 40960 MiB", () -> {
                create("o2", HamiScheduler.SCHEDULER_NAME, BIG);
                String message = MixedPods.awaitUnschedulable(admin, NS, "o2");
                assertThat(MixedPods.pod(admin, NS, "o2").getSpec().getNodeName())
                        .isNull();
                return "PodScheduled=False: " + message;
            });
            admin.pods().inNamespace(NS).withName("o2").withGracePeriod(0).delete();
        }
        try (var upstream = new Upstream("upstream-scheduler-roll-2")) {
            RUN.step("back on upstream, u2 (30000 MiB) is refused: ours' o1 is counted", () -> {
                create("u2", UPSTREAM, BIG);
                String message = MixedPods.awaitUnschedulable(admin, NS, "u2");
                assertThat(MixedPods.pod(admin, NS, "u2").getSpec().getNodeName())
                        .isNull();
                return "PodScheduled=False: " + message;
            });
            admin.pods().inNamespace(NS).withName("u2").withGracePeriod(0).delete();
            RUN.step("upstream decides u3 (5000 MiB), which fits beside either", () -> {
                ContainerDevice u3 = bindAndServe("u3", UPSTREAM, 5000);
                return "u3 on " + u3.uuid() + "; " + usage();
            });
        }
        RUN.step("no GPU overcommitted, by every pod's allocated annotation", () -> {
            Map<String, Integer> used = usedMemory();
            Map<String, Integer> capacity =
                    JsonRegisterCodec.decode(
                                    MixedPods.nodeAnnotations(admin, NODE).get(NvidiaKeys.REGISTER))
                            .stream()
                            .collect(Collectors.toMap(DeviceInfo::id, DeviceInfo::devmem));
            used.forEach((gpu, mib) -> assertThat(mib).as("MiB used on " + gpu).isLessThanOrEqualTo(capacity.get(gpu)));
            assertThat(used.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(2 * BIG + 5000);
            return usage();
        });
    }

    /** Upstream's scheduler and a kube-scheduler profile calling it, for one phase of the upgrade. */
    private static final class Upstream implements AutoCloseable {
        private final ManagedProcess scheduler;
        private final KubeSchedulerProcess kubeScheduler;

        Upstream(String name) {
            int port = UpstreamHami.freePort();
            scheduler = UpstreamHami.scheduler(UPSTREAM, plane.adminKubeconfig(), deviceConfig, port, RUN.logs(), name);
            kubeScheduler = plane.startKubeScheduler(UpstreamHami.kubeScheduler(UPSTREAM, port));
        }

        @Override
        public void close() {
            kubeScheduler.close();
            scheduler.close();
        }
    }

    private static ContainerDevice bindAndServe(String name, String scheduler) throws Exception {
        return bindAndServe(name, scheduler, BIG);
    }

    private static ContainerDevice bindAndServe(String name, String scheduler, int memMiB) throws Exception {
        create(name, scheduler, memMiB);
        ContainerDevice device = MixedPods.decided(MixedPods.awaitBound(admin, NS, name, NODE));
        assertThat(device.usedmem()).isEqualTo(memMiB);
        MixedPods.allocateWithOurPlugin(admin, plugin, NS, name, NODE, device);
        return device;
    }

    private static void create(String name, String scheduler, int memMiB) {
        admin.pods()
                .inNamespace(NS)
                .resource(MixedPods.gpuPod(NS, name, scheduler, memMiB, 10))
                .create();
    }

    /** MiB per GPU over every pod of the class that holds an NVIDIA allocation. */
    private static Map<String, Integer> usedMemory() throws Exception {
        var used = new HashMap<String, Integer>();
        for (Pod pod : admin.pods().inNamespace(NS).list().getItems()) {
            String allocated = ClusterOps.annotations(pod).get(NvidiaKeys.ALLOCATED);
            if (allocated == null) {
                continue;
            }
            for (List<ContainerDevice> container :
                    PodDevicesCodec.decode(allocated).containers()) {
                for (ContainerDevice d : container) {
                    used.merge(d.uuid(), d.usedmem(), Integer::sum);
                }
            }
        }
        return used;
    }

    private static String usage() throws Exception {
        return "MiB used per GPU " + new java.util.TreeMap<>(usedMemory());
    }
}
