package io.hami.e2e.mixed;

import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.backend.cambricon.CambriconKeys;
import io.hami.backend.mthreads.MthreadsKeys;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.ManagedProcess;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.DeployFiles;
import io.hami.e2e.support.MockPlugin;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.testing.PatientTimeout;
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
 * Upstream HAMi's scheduler deciding, our NVIDIA device plugin serving: upstream's scheduler reads the register our
 * plugin writes, kube-scheduler binds a pod through upstream's extender, and our plugin's Allocate (called as the
 * kubelet calls it) serves upstream's decision and finishes the protocol (bind-phase, node lock).
 */
@EnableKubeControlPlane
@UpstreamHami.Required
@PatientTimeout(value = 10, unit = TimeUnit.MINUTES)
class UpstreamSchedulerOurPluginTest {
    static final String NS = "e2e-mixed-up";
    static final String NODE = "mixed-up-gpu";
    static final String MLU_NODE = "mixed-up-mlu";
    static final String MT_NODE = "mixed-up-mt";
    static final String SCHEDULER = "hami-upstream-a";

    static KubeControlPlane plane;
    static KubernetesClient admin;
    static MockPlugin plugin;
    static MockPlugin mlu;
    static MockPlugin mthreads;
    static ManagedProcess upstream;
    static final CrossRun RUN = new CrossRun(
            "upstream-scheduler-our-plugin", "upstream scheduler -> our plugins (C mocks, real kube-scheduler)");

    @BeforeAll
    static void cluster(@TempDir Path dir) throws Exception {
        plane.ensureNamespace(NS);
        NodeLifecycle.createReady(admin, MixedPods.gpuNode(NODE, NS));
        plugin = MockPlugin.start(admin, "nvidia", NODE, DeviceConfig.DEFAULTS, dir.resolve("plugin"));
        await("our plugin's register on " + NODE)
                .atMost(MixedPods.PATIENCE)
                .until(() -> annotations(admin.nodes().withName(NODE).get()).containsKey(NvidiaKeys.REGISTER));

        // Cambricon is discovered from Capacity: what the kubelet reports once our plugin registered 2 cards of 24 GiB.
        NodeLifecycle.createReady(
                admin,
                Cluster.cambricon(Cluster.node(MLU_NODE), 2, 96)
                        .editSpec()
                        .addToTaints(Cluster.e2eTaint(NS))
                        .endSpec()
                        .build());
        mlu = MockPlugin.start(admin, "cambricon", MLU_NODE, DeviceConfig.DEFAULTS, dir.resolve("plugin"));
        // Moore Threads likewise: 2 GPUs of 48 GiB (96 units of 512 MiB).
        NodeLifecycle.createReady(
                admin,
                Cluster.mthreads(Cluster.node(MT_NODE), 2, 96)
                        .editSpec()
                        .addToTaints(Cluster.e2eTaint(NS))
                        .endSpec()
                        .build());
        mthreads = MockPlugin.start(admin, "mthreads", MT_NODE, DeviceConfig.DEFAULTS, dir.resolve("plugin"));

        Path deviceConfig = Files.writeString(dir.resolve("device-config.yaml"), DeployFiles.deviceConfigYaml());
        int port = UpstreamHami.freePort();
        upstream = UpstreamHami.scheduler(
                SCHEDULER, plane.adminKubeconfig(), deviceConfig, port, RUN.logs(), "upstream-scheduler-a");
        plane.startKubeScheduler(UpstreamHami.kubeScheduler(SCHEDULER, port));
    }

    @AfterAll
    static void stop() {
        try {
            RUN.publish();
            if (upstream != null) {
                upstream.close();
            }
            if (plugin != null) {
                plugin.close();
            }
            if (mlu != null) {
                mlu.close();
            }
            if (mthreads != null) {
                mthreads.close();
            }
        } finally {
            ClusterOps.deletePods(admin, NS);
            ClusterOps.deleteNodes(admin, List.of(NODE, MLU_NODE, MT_NODE));
        }
    }

    @Test
    void upstreamsDecisionIsServedByOurPlugin() throws Exception {
        String[] register = new String[1];
        RUN.step("our plugin registers 2 mock GPUs (JSON register)", () -> {
            register[0] = annotations(admin.nodes().withName(NODE).get()).get(NvidiaKeys.REGISTER);
            assertThat(JsonRegisterCodec.decode(register[0])).hasSize(2);
            return NvidiaKeys.REGISTER + "=" + register[0];
        });
        admin.pods()
                .inNamespace(NS)
                .resource(MixedPods.gpuPod(NS, "cuda", SCHEDULER, 3000, 30))
                .create();

        Map<String, String>[] decided = new Map[1];
        RUN.step("kube-scheduler binds through upstream's extender", () -> {
            decided[0] = MixedPods.awaitBound(admin, NS, "cuda", NODE);
            assertThat(decided[0])
                    .containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING)
                    .containsEntry(ProtocolKeys.VGPU_NODE, NODE)
                    .containsKey(NvidiaKeys.TO_ALLOCATE);
            return "nodeName=" + NODE + "; " + NvidiaKeys.TO_ALLOCATE + "=" + decided[0].get(NvidiaKeys.TO_ALLOCATE)
                    + "; " + ProtocolKeys.BIND_PHASE + "=allocating";
        });
        RUN.step("upstream holds the node lock for the pod", () -> {
            String lock = annotations(admin.nodes().withName(NODE).get()).get(ProtocolKeys.NODE_LOCK);
            assertThat(lock).endsWith("," + NS + ",cuda");
            return ProtocolKeys.NODE_LOCK + "=" + lock;
        });
        ContainerDevice chosen = MixedPods.decided(decided[0]);
        RUN.step("upstream's decision names one of our GPUs, 3000 MiB, 30 cores", () -> {
            assertThat(register[0]).contains(chosen.uuid());
            assertThat(chosen.usedmem()).isEqualTo(3000);
            assertThat(chosen.usedcores()).isEqualTo(30);
            return chosen.toString();
        });
        RUN.step("our plugin's Allocate (as the kubelet calls it) serves upstream's decision", () -> {
            var response = plugin.allocate(chosen.uuid() + "-0");
            var envs = response.getContainerResponses(0).getEnvsMap();
            return MixedPods.assertHamiCoreEnv(envs, chosen);
        });
        RUN.step("our plugin finishes the protocol: success, entry consumed, lock released", () -> {
            return MixedPods.assertFinished(admin, NS, "cuda", NODE, decided[0]);
        });
    }

    /**
     * Upstream locks a Cambricon-only pod's node with {@code cambricon.com/dsmlu.lock}, a time naming no pod, and
     * leaves {@code hami.io/mutex.lock} alone; our plugins serve only the pod the node lock names (design D5), so our
     * Cambricon plugin refuses upstream's decision instead of guessing whose it is (docs/upstream.md#mixed-clusters).
     */
    @Test
    void upstreamsCambriconDecisionIsRefusedByOurPluginForWantOfANodeLock() throws Exception {
        refusedForWantOfANodeLock(
                "Cambricon",
                mlu,
                MLU_NODE,
                Cluster.container(
                        "mlu",
                        "cambricon.com/vmlu",
                        "1",
                        "cambricon.com/mlu.smlu.vmemory",
                        "8",
                        "cambricon.com/mlu.smlu.vcore",
                        "25"),
                CambriconKeys.TO_ALLOCATE,
                "cambricon.com/dsmlu.lock");
    }

    /**
     * Upstream's Moore Threads backend takes no lock at all and writes only the allocated key, never the to-allocate
     * key our plugin consumes: our plugin refuses (docs/upstream.md#mixed-clusters).
     */
    @Test
    void upstreamsMooreThreadsDecisionIsRefusedByOurPluginForWantOfANodeLock() throws Exception {
        refusedForWantOfANodeLock(
                "Moore Threads",
                mthreads,
                MT_NODE,
                Cluster.container(
                        "musa",
                        "mthreads.com/vgpu",
                        "1",
                        "mthreads.com/sgpu-memory",
                        "8",
                        "mthreads.com/sgpu-core",
                        "4"),
                MthreadsKeys.ALLOCATED,
                null);
    }

    /**
     * kube-scheduler binds a one-container pod of {@code vendor} onto {@code node} through upstream's extender, which
     * writes {@code decisionKey} and, if not null, its own {@code vendorLock} on the node but not our node lock; our
     * plugin's Allocate then fails and consumes nothing.
     */
    private static void refusedForWantOfANodeLock(
            String vendor,
            MockPlugin ours,
            String node,
            io.fabric8.kubernetes.api.model.Container container,
            String decisionKey,
            String vendorLock)
            throws Exception {
        String name = container.getName();
        admin.pods()
                .inNamespace(NS)
                .resource(new PodBuilder(Cluster.pod(NS, name, container).build())
                        .editSpec()
                        .withSchedulerName(SCHEDULER)
                        .addToTolerations(Cluster.e2eToleration())
                        .addToNodeSelector("kubernetes.io/hostname", node)
                        .endSpec()
                        .build())
                .create();
        Map<String, String>[] decided = new Map[1];
        RUN.step("kube-scheduler binds a " + vendor + " pod through upstream's extender", () -> {
            decided[0] = MixedPods.awaitBound(admin, NS, name, node);
            var nodeAnnotations = MixedPods.nodeAnnotations(admin, node);
            assertThat(decided[0]).containsKey(decisionKey);
            assertThat(nodeAnnotations).doesNotContainKey(ProtocolKeys.NODE_LOCK);
            if (vendorLock != null) {
                assertThat(nodeAnnotations).containsKey(vendorLock);
            }
            return decisionKey + "=" + decided[0].get(decisionKey) + "; node: "
                    + (vendorLock == null ? "no lock" : vendorLock + "=" + nodeAnnotations.get(vendorLock))
                    + ", no " + ProtocolKeys.NODE_LOCK;
        });
        RUN.step("our " + vendor + " plugin refuses it (no node lock names the pod); nothing consumed", () -> {
            String device = decided[0].get(decisionKey).split(",")[0];
            Throwable refused = catchThrowable(() -> ours.allocate(device));
            assertThat(refused).isNotNull();
            assertThat(annotations(MixedPods.pod(admin, NS, name)))
                    .containsEntry(decisionKey, decided[0].get(decisionKey))
                    .doesNotContainEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_SUCCESS);
            return refused.getMessage();
        });
    }

    private static Pod pod() {
        return MixedPods.pod(admin, NS, "cuda");
    }
}
