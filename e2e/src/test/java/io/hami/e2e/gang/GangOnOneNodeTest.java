package io.hami.e2e.gang;

import static io.hami.e2e.support.Cluster.container;
import static io.hami.e2e.support.Cluster.gpu;
import static io.hami.e2e.support.Cluster.onNode;
import static io.hami.e2e.support.Cluster.pod;
import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.kubelet.ContainerRuntime;
import io.hami.lab.kubelet.PodStatusWriter;
import io.hami.lab.kubelet.SyntheticKubelet;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, point 1 (upstream #1832, #1655): the members of one PodGroup that kube-scheduler places on one node all
 * bind through our extender without a "node lock contention" refusal, each waiting inside its bind for the previous
 * one's allocation (the lab's {@link SyntheticKubelet} finishes allocations and releases the lock, as the plugins
 * would). The same pods without the group label are refused and backed off by kube-scheduler, as before. Both times
 * are printed.
 */
@EnableKubeControlPlane
@PatientTimeout(value = 5, unit = TimeUnit.MINUTES)
class GangOnOneNodeTest {
    static final String NS = "e2e-gang";
    static final String GANG_NODE = "gang-node";
    static final String PLAIN_NODE = "gang-plain-node";
    static final List<String> NODES = List.of(GANG_NODE, PLAIN_NODE);
    static final int MEMBERS = 4;
    /** The bound a gang of 4 on one node binds within: 2.4 s measured here (2 cores), with room for a loaded machine. */
    static final Duration GANG_BOUND_WITHIN = Patience.seconds(20);

    static KubeControlPlane plane;
    static KubernetesClient admin;
    static HamiScheduler scheduler;
    static KubernetesClient kubeletClient;
    static SyntheticKubelet kubelet;

    @BeforeAll
    static void cluster(@TempDir Path dir) throws Exception {
        plane.ensureNamespace(NS);
        for (String node : NODES) {
            NodeLifecycle.createReady(
                    admin,
                    Cluster.nvidia(
                            node,
                            IntStream.range(0, 4)
                                    .mapToObj(i -> gpu("GPU-" + node + "-" + i, i, 8000, "NVIDIA-A100"))
                                    .toArray(io.hami.protocol.device.DeviceInfo[]::new)));
        }
        // The default --gang-lock-wait (10 s), as the Deployment runs it.
        scheduler = HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("hami"));
        ClusterOps.awaitIndexed(scheduler, NODES);
        scheduler.startKubeScheduler(plane, null);
        kubeletClient = plane.newClient();
        kubelet = new SyntheticKubelet(
                kubeletClient,
                Set.copyOf(NODES),
                DeviceBackends.load(DeviceConfig.DEFAULTS),
                new NodeLockClient(kubeletClient, Duration.ofMinutes(5), Clock.systemUTC()),
                new ContainerRuntime(new PodStatusWriter(kubeletClient)));
    }

    @AfterAll
    static void stop() {
        try {
            if (kubelet != null) {
                kubelet.close();
            }
            if (kubeletClient != null) {
                kubeletClient.close();
            }
            if (scheduler != null) {
                scheduler.close();
            }
        } finally {
            ClusterOps.deletePods(admin, NS);
            ClusterOps.deleteNodes(admin, NODES);
        }
    }

    @Test
    void aGangOnOneNodeBindsWithoutContentionWhileTheSamePodsWithoutAGroupAreRefusedFirst() throws Exception {
        List<String> gang = names("gang");
        Duration gangTook = createAndAwaitBound(gang, GANG_NODE, true, GANG_BOUND_WITHIN);
        awaitEvents(gang, "BindingSucceed");
        List<Event> gangRefusals = contention(gang);
        assertThat(gangRefusals)
                .as("no member of the gang refused for the node lock")
                .isEmpty();
        assertDistinctCards(gang);

        List<String> plain = names("plain");
        Duration plainTook = createAndAwaitBound(plain, PLAIN_NODE, false, Duration.ofMinutes(3));
        awaitEvents(plain, "BindingSucceed");
        List<Event> plainRefusals = contention(plain);
        assertThat(plainRefusals)
                .as("without a group the same pods are refused for the node lock, as before")
                .isNotEmpty();
        assertDistinctCards(plain);

        System.out.printf(
                "gang on one node: %d pods bound in %d ms with a pod-group label (%d contention refusals),"
                        + " %d ms without (%d contention refusals)%n",
                MEMBERS, gangTook.toMillis(), gangRefusals.size(), plainTook.toMillis(), plainRefusals.size());
    }

    private static List<String> names(String prefix) {
        return IntStream.range(0, MEMBERS).mapToObj(i -> prefix + "-" + i).toList();
    }

    /** Creates the pods on {@code node} (labelled as one PodGroup when {@code group}); the time until all are bound. */
    private static Duration createAndAwaitBound(List<String> names, String node, boolean group, Duration within) {
        long start = System.nanoTime();
        for (String name : names) {
            Pod p = onNode(
                    pod(NS, name, container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "8000"))
                            .build(),
                    node);
            var b = new PodBuilder(p)
                    .editSpec()
                    .withSchedulerName(HamiScheduler.SCHEDULER_NAME)
                    .endSpec();
            if (group) {
                b.editMetadata()
                        .addToLabels("scheduling.x-k8s.io/pod-group", "train")
                        .endMetadata();
            }
            admin.pods().inNamespace(NS).resource(b.build()).create();
        }
        await(names + " bound to " + node)
                .atMost(within)
                .pollInterval(Duration.ofMillis(100))
                .until(() -> names.stream().allMatch(n -> {
                    Pod p = admin.pods().inNamespace(NS).withName(n).get();
                    return p != null && node.equals(p.getSpec().getNodeName());
                }));
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static void awaitEvents(List<String> names, String reason) {
        await(reason + " events of " + names)
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> names.stream()
                        .allMatch(n -> events().stream()
                                .anyMatch(e ->
                                        n.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))));
    }

    private static List<Event> contention(List<String> names) {
        return events().stream()
                .filter(e -> names.contains(e.getInvolvedObject().getName())
                        && "BindingFailed".equals(e.getReason())
                        && e.getMessage().contains("node lock contention"))
                .toList();
    }

    private static List<Event> events() {
        return admin.v1().events().inNamespace(NS).list().getItems();
    }

    /** 8000 MiB each on 8000 MiB cards: every pod on its own card, so no decision was made on a stale view. */
    private static void assertDistinctCards(List<String> names) throws AnnotationFormatException {
        Set<String> cards = new HashSet<>();
        var all = new ArrayList<String>();
        for (String n : names) {
            Pod p = admin.pods().inNamespace(NS).withName(n).get();
            var devices = PodDevicesCodec.decode(annotations(p).get("hami.io/vgpu-devices-allocated"));
            for (ContainerDevice d : devices.containers().getFirst()) {
                cards.add(d.uuid());
                all.add(d.uuid());
            }
        }
        assertThat(cards).as("cards of " + all).hasSize(names.size());
    }
}
