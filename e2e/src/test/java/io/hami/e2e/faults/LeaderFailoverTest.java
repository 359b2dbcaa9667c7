package io.hami.e2e.faults;

import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.KubeSchedulerConfig;
import io.hami.controlplane.KubeSchedulerProcess;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterInvariants;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.kubelet.ContainerRuntime;
import io.hami.lab.kubelet.PodStatusWriter;
import io.hami.lab.kubelet.SyntheticKubelet;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.UnixTimeCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Two scheduler replicas as the Deployment runs them: each a kube-scheduler with leader election and our extender
 * beside it following that kube-scheduler's Lease ({@code --leader-follow}), the two told apart by host name as two
 * pods are. A burst of 300 pods; once a third is bound the leading pair is killed (SIGKILL: no Lease released, binds
 * cut off). The other pair takes the Lease and binds the rest. From the API server afterwards: every pod bound once,
 * no device overcommitted, no lock stuck; the seconds from the kill to the next bind are printed.
 */
@EnableKubeControlPlane
@PatientTimeout(value = 8, unit = TimeUnit.MINUTES)
class LeaderFailoverTest {
    static final String NS = "e2e-failover";
    static final String LEASE = "e2e-failover-scheduler";
    static final int NODES = 10;
    static final int GPUS = 4;
    static final int PODS = 300;
    /** 8 pods of 1000 MiB fit a card of 8000 MiB: 320 slots for 300 pods. */
    static final int GPU_MEM = 8000;

    static final Duration LOCK_TIMEOUT = Duration.ofMinutes(5);
    static final List<String> NODE_NAMES =
            IntStream.range(0, NODES).mapToObj(i -> "failover-" + i).toList();

    static KubeControlPlane plane;
    static KubernetesClient admin;
    static final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void cluster() {
        plane.ensureNamespace(NS);
        for (String name : NODE_NAMES) {
            var gpus = IntStream.range(0, GPUS)
                    .mapToObj(g -> Cluster.gpu("GPU-" + name + "-" + g, g, GPU_MEM, "NVIDIA-A10"))
                    .toArray(DeviceInfo[]::new);
            NodeLifecycle.createReady(
                    admin,
                    new NodeBuilder(Cluster.nvidia(name, gpus))
                            .editOrNewSpec()
                            .addToTaints(Cluster.e2eTaint(NS))
                            .endSpec()
                            .build());
        }
    }

    @AfterAll
    static void stop() {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            try {
                closeables.get(i).close();
            } catch (Exception e) {
                // keep closing the rest
            }
        }
        ClusterOps.deletePods(admin, NS);
        ClusterOps.deleteNodes(admin, NODE_NAMES);
        admin.leases().inNamespace(NS).withName(LEASE).delete();
    }

    /** One replica: our extender and the kube-scheduler beside it, as one pod of the Deployment. */
    private record Replica(String pod, HamiScheduler extender, KubeSchedulerProcess kubeScheduler) {}

    private static Replica replica(String pod, Path dir) throws Exception {
        var extender = HamiScheduler.start(
                plane, plane.adminConfig(), new LeaderMode.Follow(NS, LEASE, pod), dir.resolve(pod));
        closeables.add(extender);
        var kubeScheduler = plane.startKubeScheduler(KubeSchedulerConfig.extender(extender.url(), extender.caFile())
                .withDocument(leaseIn(NS, LEASE))
                .withLeaderElection(true)
                // system:kube-scheduler may hold only kube-system's Lease; this one is the class's own.
                .withIdentity(plane.adminConfig())
                .withHostname(pod));
        closeables.add(kubeScheduler);
        return new Replica(pod, extender, kubeScheduler);
    }

    /** deploy/'s configuration with its Lease in this class's namespace, so no other class's kube-scheduler holds it. */
    private static String leaseIn(String namespace, String name) {
        var yaml = YAMLMapper.builder().build();
        var doc = (ObjectNode) yaml.readTree(KubeSchedulerConfig.deployedDocument());
        ((ObjectNode) doc.path("leaderElection"))
                .put("resourceNamespace", namespace)
                .put("resourceName", name);
        return yaml.writeValueAsString(doc);
    }

    @Test
    void theOtherReplicaTakesOverWithoutDoubleBindsOrOvercommit(@TempDir Path dir) throws Exception {
        var a = replica("replica-a", dir);
        var b = replica("replica-b", dir);
        var replicas = List.of(a, b);
        ClusterOps.awaitIndexed(a.extender(), NODE_NAMES);
        ClusterOps.awaitIndexed(b.extender(), NODE_NAMES);

        // The device plugins of these nodes, at the annotation level: entries consumed, success, lock released.
        KubernetesClient kubeletClient = plane.newClient();
        closeables.add(kubeletClient);
        closeables.add(new SyntheticKubelet(
                kubeletClient,
                Set.copyOf(NODE_NAMES),
                DeviceBackends.load(DeviceConfig.DEFAULTS),
                new NodeLockClient(kubeletClient, LOCK_TIMEOUT, Clock.systemUTC()),
                new ContainerRuntime(new PodStatusWriter(kubeletClient))));

        Replica leader = await("one replica leads")
                .atMost(Patience.seconds(60))
                .until(() -> leading(replicas), java.util.Objects::nonNull);
        Replica survivor = leader.pod().equals(a.pod()) ? b : a;
        assertThat(survivor.extender().app().isLeader())
                .as("only one extender leads")
                .isFalse();

        long burstStart = System.nanoTime();
        for (int i = 0; i < PODS; i++) {
            admin.pods().inNamespace(NS).resource(pod(i)).create();
        }
        await("a third of the pods bound before the kill")
                .atMost(Patience.seconds(180))
                .until(() -> bound().size() >= PODS / 3);

        Instant killed = Instant.now();
        leader.kubeScheduler().kill();
        leader.extender().close(); // its pod is gone with it
        int boundAtKill = bound().size();

        await("the other replica leads")
                .atMost(Patience.seconds(90))
                .until(() -> survivor.extender().app().isLeader());
        await("every pod bound and allocated")
                .atMost(Patience.seconds(240))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> {
                    var pods = admin.pods().inNamespace(NS).list().getItems();
                    return pods.stream()
                            .allMatch(p -> p.getSpec().getNodeName() != null
                                    && ProtocolKeys.PHASE_SUCCESS.equals(
                                            annotations(p).get(ProtocolKeys.BIND_PHASE)));
                });
        long burstSeconds = (System.nanoTime() - burstStart) / 1_000_000_000;

        Instant firstBindAfter = bound().stream()
                .map(p -> annotations(p).get(ProtocolKeys.BIND_TIME))
                .map(LeaderFailoverTest::bindTime)
                .filter(t -> !t.isBefore(killed))
                .min(Instant::compareTo)
                .orElseThrow();
        ClusterInvariants.assertNoOvercommit(admin, NS, NODE_NAMES);
        int stuck = ClusterInvariants.stuckLocks(admin, NODE_NAMES, LOCK_TIMEOUT);
        System.out.printf(
                "failover: %d pods, %d bound before the kill of %s, all %d bound after it; overcommits 0; stuck locks"
                        + " %d; %d s from the kill to the next bind (the Lease's 15 s duration included); burst %d s%n",
                PODS,
                boundAtKill,
                leader.pod(),
                bound().size(),
                stuck,
                Duration.between(killed, firstBindAfter).toSeconds(),
                burstSeconds);
        assertThat(bound()).hasSize(PODS);
        assertThat(stuck).as("node locks stuck").isZero();
    }

    private static Replica leading(List<Replica> replicas) {
        Lease lease = admin.leases().inNamespace(NS).withName(LEASE).get();
        if (lease == null || lease.getSpec().getHolderIdentity() == null) {
            return null;
        }
        String holder = lease.getSpec().getHolderIdentity();
        return replicas.stream()
                .filter(r ->
                        holder.startsWith(r.pod() + "_") && r.extender().app().isLeader())
                .findFirst()
                .orElse(null);
    }

    private static Instant bindTime(String unixSeconds) {
        try {
            return UnixTimeCodec.decode(unixSeconds);
        } catch (io.hami.protocol.codec.AnnotationFormatException e) {
            throw new AssertionError("bad bind time " + unixSeconds, e);
        }
    }

    private static List<Pod> bound() {
        return admin.pods().inNamespace(NS).list().getItems().stream()
                .filter(p -> p.getSpec().getNodeName() != null)
                .toList();
    }

    private static Pod pod(int i) {
        return new PodBuilder(Cluster.pod(
                                NS,
                                "burst-" + i,
                                Cluster.container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"))
                        .build())
                .editSpec()
                .withSchedulerName(HamiScheduler.SCHEDULER_NAME)
                .addToTolerations(Cluster.e2eToleration())
                .endSpec()
                .build();
    }
}
