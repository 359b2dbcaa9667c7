package io.hami.e2e.preempt;

import static io.hami.e2e.support.Cluster.container;
import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.KubeSchedulerConfig;
import io.hami.controlplane.KubeSchedulerProcess;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Preemption through the real kube-scheduler: deploy/'s configuration (which carries {@code preemptVerb: preempt}) with
 * one change an operator makes for device preemption, {@code nvidia.com/gpu} visible to kube-scheduler
 * ({@code ignoredByScheduler: false}, docs/operators.md#preemption), so that its own plugins see the count resource run
 * short and look for victims, then ask our extender. PriorityClasses low (100) and high (1000); the pods that hold
 * devices are created bound, with their decision, as after their Allocate (no kubelet here). Each case has a node of
 * its own, two 16000 MiB cards, whose {@code nvidia.com/gpu} allocatable the test sets.
 */
@EnableKubeControlPlane
@PatientTimeout(value = 3, unit = TimeUnit.MINUTES)
class KubeSchedulerPreemptionTest {
    static final String NS = "e2e-preempt";
    static final String LOW = "e2e-preempt-low";
    static final String HIGH = "e2e-preempt-high";
    /** Two low-priority pods fill the node's 2 nvidia.com/gpu; the high one needs both cards. */
    static final String EVICT = "pre-evict";
    /** 3 nvidia.com/gpu taken by two high-priority pods and one low one that frees too little on its card. */
    static final String KEEP = "pre-keep";

    static final List<String> NODES = List.of(EVICT, KEEP);
    static final Duration WITHIN = Patience.seconds(60);

    static KubeControlPlane plane;
    static KubernetesClient admin;
    static HamiScheduler scheduler;
    static KubeSchedulerProcess kubeScheduler;

    @BeforeAll
    static void cluster(@TempDir Path dir) throws Exception {
        plane.ensureNamespace(NS);
        priorityClass(LOW, 100);
        priorityClass(HIGH, 1000);
        node(EVICT, 2);
        node(KEEP, 3);
        running("low-1", EVICT, LOW, "GPU-evict-0", 10000);
        running("low-2", EVICT, LOW, "GPU-evict-1", 10000);
        running("high-0", KEEP, HIGH, "GPU-keep-0", 8000);
        running("low-3", KEEP, LOW, "GPU-keep-0", 4000);
        running("high-1", KEEP, HIGH, "GPU-keep-1", 10000);
        scheduler =
                HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("hami-scheduler"));
        ClusterOps.awaitIndexed(scheduler, NODES);
        await("the running pods' devices in our index")
                .atMost(Patience.seconds(30))
                .until(() -> used(EVICT, 0) == 10000
                        && used(EVICT, 1) == 10000
                        && used(KEEP, 0) == 12000
                        && used(KEEP, 1) == 10000);
        // The test's one change to deploy/'s kube-scheduler configuration: the count resource counted by
        // kube-scheduler.
        kubeScheduler = plane.startKubeScheduler(KubeSchedulerConfig.extender(scheduler.url(), scheduler.caFile())
                .withVisibleResources("nvidia.com/gpu"));
    }

    @AfterAll
    static void stop() {
        try {
            if (kubeScheduler != null) {
                kubeScheduler.close();
            }
            if (scheduler != null) {
                scheduler.close();
            }
        } finally {
            ClusterOps.deletePods(admin, NS);
            ClusterOps.deleteNodes(admin, NODES);
            admin.scheduling().v1().priorityClasses().withName(LOW).delete();
            admin.scheduling().v1().priorityClasses().withName(HIGH).delete();
        }
    }

    static void priorityClass(String name, int value) {
        admin.scheduling().v1().priorityClasses().withName(name).delete();
        await().atMost(Patience.seconds(30))
                .until(() ->
                        admin.scheduling().v1().priorityClasses().withName(name).get() == null);
        admin.scheduling()
                .v1()
                .priorityClasses()
                .resource(new PriorityClassBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .endMetadata()
                        .withValue(value)
                        .build())
                .create();
    }

    /** Two 16000 MiB cards; kube-scheduler counts {@code slots} nvidia.com/gpu (what the test sets the kubelet's to). */
    static void node(String name, int slots) {
        // The register's slots add up to the node's Allocatable (a register above it is refused, design D9).
        Node node = Cluster.nvidia(
                name,
                new DeviceInfo(
                        "GPU-" + name.substring(4) + "-0",
                        0,
                        (slots + 1) / 2,
                        16000,
                        100,
                        "NVIDIA-A10",
                        0,
                        "hami-core",
                        true),
                new DeviceInfo(
                        "GPU-" + name.substring(4) + "-1",
                        1,
                        slots / 2,
                        16000,
                        100,
                        "NVIDIA-A10",
                        0,
                        "hami-core",
                        true));
        node.getStatus().getAllocatable().put("nvidia.com/gpu", new Quantity(String.valueOf(slots)));
        node.getStatus().getCapacity().put("nvidia.com/gpu", new Quantity(String.valueOf(slots)));
        NodeLifecycle.createReady(admin, node);
    }

    /** A pod bound to {@code node} holding {@code memMiB} of {@code uuid}, as after its Allocate. */
    static void running(String name, String node, String priorityClass, String uuid, int memMiB) {
        String allocated = PodDevicesCodec.encode(
                new PodDevices(List.of(List.of(new ContainerDevice(uuid, "NVIDIA", memMiB, 0)))));
        Pod pod = Cluster.pod(
                        NS, name, container("cuda", "nvidia.com/gpu", "1", "nvidia.com/gpumem", String.valueOf(memMiB)))
                .editMetadata()
                .addToAnnotations("hami.io/vgpu-node", node)
                .addToAnnotations("hami.io/vgpu-devices-allocated", allocated)
                .addToAnnotations("hami.io/vgpu-devices-to-allocate", ";")
                .addToAnnotations("hami.io/bind-phase", "success")
                .endMetadata()
                .editSpec()
                .withNodeName(node)
                .withSchedulerName(HamiScheduler.SCHEDULER_NAME)
                .withPriorityClassName(priorityClass)
                .endSpec()
                .build();
        admin.pods().inNamespace(NS).resource(pod).create();
    }

    /** A high-priority pod for {@code node}, to be scheduled by kube-scheduler. */
    static Pod preemptor(String name, String node, String gpus, int memMiB) {
        Pod pod = Cluster.pod(
                        NS,
                        name,
                        container("cuda", "nvidia.com/gpu", gpus, "nvidia.com/gpumem", String.valueOf(memMiB)))
                .editSpec()
                .withSchedulerName(HamiScheduler.SCHEDULER_NAME)
                .withPriorityClassName(HIGH)
                .endSpec()
                .build();
        return admin.pods().inNamespace(NS).resource(Cluster.onNode(pod, node)).create();
    }

    static int used(String node, int card) {
        var snapshot = scheduler.app().index().current(node);
        return snapshot == null
                ? -1
                : snapshot.view().devicesOf("NVIDIA").get(card).usedmem();
    }

    static Pod get(String name) {
        return admin.pods().inNamespace(NS).withName(name).get();
    }

    @Test
    void aHighPriorityPodGetsTheLowPriorityPodsEvictedAndBindsWithTheirDevices() {
        assertThat(preemptor("high-2", EVICT, "2", 10000).getSpec().getPriority())
                .isEqualTo(1000);
        await("low-priority pods deleted by kube-scheduler")
                .atMost(WITHIN)
                .until(() -> get("low-1") == null && get("low-2") == null);
        await("the high-priority pod bound").atMost(WITHIN).until(() -> {
            Pod p = get("high-2");
            return p.getSpec().getNodeName() != null
                    && !p.getSpec().getNodeName().isEmpty();
        });
        Pod bound = get("high-2");
        assertThat(bound.getSpec().getNodeName()).isEqualTo(EVICT);
        var decision = annotations(bound);
        assertThat(decision).containsEntry("hami.io/vgpu-node", EVICT);
        assertThat(decision.get("hami.io/vgpu-devices-to-allocate"))
                .contains("GPU-evict-0,NVIDIA,10000")
                .contains("GPU-evict-1,NVIDIA,10000");
        assertThat(events("low-1", "Preempted")).isNotEmpty();
        assertThat(events("low-2", "Preempted")).isNotEmpty();
    }

    @Test
    void victimsThatWouldNotFreeEnoughOnAnyOneCardKeepRunningAndThePodStaysPending() {
        Pod pending = preemptor("high-3", KEEP, "1", 12000);
        assertThat(pending.getSpec().getPriority()).isEqualTo(1000);
        // kube-scheduler's plugins find low-3 (the one pod of lower priority: 3 - 1 = 2 nvidia.com/gpu leave room for
        // 1), but card 0 would then have 8000 MiB free and card 1 6000: our extender leaves the node out
        await("kube-scheduler reports that preemption does not help")
                .atMost(WITHIN)
                .until(() -> scheduledCondition("high-3") != null
                        && scheduledCondition("high-3").getMessage().contains("no candidate node for preemption"));
        PodCondition condition = scheduledCondition("high-3");
        assertThat(condition.getStatus()).isEqualTo("False");
        assertThat(condition.getReason()).isEqualTo("Unschedulable");
        assertThat(condition.getMessage()).contains("Insufficient nvidia.com/gpu");
        Pod victim = get("low-3");
        assertThat(victim).as("the low-priority pod still exists").isNotNull();
        assertThat(victim.getMetadata().getDeletionTimestamp()).isNull();
        assertThat(events("low-3", "Preempted")).isEmpty();
        assertThat(get("high-3").getSpec().getNodeName()).isNullOrEmpty();
        assertThat(get("high-3").getStatus().getNominatedNodeName()).isNullOrEmpty();
        assertThat(used(KEEP, 0)).isEqualTo(12000);
    }

    static PodCondition scheduledCondition(String pod) {
        Pod p = get(pod);
        if (p == null || p.getStatus() == null || p.getStatus().getConditions() == null) {
            return null;
        }
        return p.getStatus().getConditions().stream()
                .filter(c -> "PodScheduled".equals(c.getType()))
                .findFirst()
                .orElse(null);
    }

    static List<Event> events(String pod, String reason) {
        return admin.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> pod.equals(e.getInvolvedObject().getName()) && reason.equals(e.getReason()))
                .toList();
    }
}
