package io.hami.scheduler.preempt;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.PodPlacement;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.fit.NodeView;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.preempt.VictimRule.Answer;
import io.hami.scheduler.preempt.VictimRule.Resources;
import io.hami.scheduler.preempt.VictimRule.Victim;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.UsageIndex;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The preempt rule on plain values, with the real NVIDIA backend's fit. */
class VictimRuleTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);

    static DeviceInfo card(String id, int index) {
        return new DeviceInfo(id, index, 10, 16000, 100, "NVIDIA-A100", 0, "hami-core", true);
    }

    /** A node of 16000 MiB cards; {@code used} is what every pod (victims included) holds, MiB per card. */
    static UsageIndex.NodeSnapshot node(int... usedMiB) {
        var devices = new java.util.ArrayList<DeviceUsage>();
        for (int i = 0; i < usedMiB.length; i++) {
            devices.add(new DeviceUsage(card("GPU-" + i, i), usedMiB[i] == 0 ? 0 : 1, usedMiB[i], 0));
        }
        return new UsageIndex.NodeSnapshot(new NodeView("n1", Map.of(), Map.of("NVIDIA", devices)), List.of());
    }

    /** A pod asking for one GPU with {@code memMiB}. */
    static PodPlacement asking(int memMiB, Map<String, QuotaRoom> rooms) throws Exception {
        var limits = new LinkedHashMap<String, Quantity>();
        limits.put("nvidia.com/gpu", new Quantity("1"));
        limits.put("nvidia.com/gpumem", new Quantity(String.valueOf(memMiB)));
        Pod pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("high")
                .endMetadata()
                .withNewSpec()
                .withContainers(new ContainerBuilder()
                        .withName("c")
                        .withNewResources()
                        .withLimits(limits)
                        .endResources()
                        .build())
                .endSpec()
                .build();
        var request = PodRequest.of(pod, BACKENDS);
        return new PodPlacement(
                request,
                BACKENDS,
                SchedulingPolicy.UPSTREAM_DEFAULTS.placementFor(Map.of(), BACKENDS),
                Map.of(),
                rooms);
    }

    static PodPlacement asking(int memMiB) throws Exception {
        return asking(memMiB, Map.of());
    }

    /** A victim holding {@code memMiB} on card {@code card}, counting one {@code nvidia.com/gpu}. */
    static Victim holding(String uid, int card, int memMiB) {
        return new Victim(
                uid,
                Map.of("GPU-" + card, new Grant(1, memMiB, 0)),
                Map.of(),
                Map.of("nvidia.com/gpu", BigDecimal.ONE, "pods", BigDecimal.ONE));
    }

    static List<String> evicted(Answer answer) {
        assertThat(answer).isInstanceOf(Answer.Evict.class);
        return ((Answer.Evict) answer).uids();
    }

    @Test
    void podThatFitsOnlyWithEveryVictimGoneEvictsThemAll() throws Exception {
        // one card: v1 and v2 hold 8000 MiB each; the pod needs 12000
        var answer = VictimRule.decide(
                node(16000), asking(12000), List.of(holding("v1", 0, 8000), holding("v2", 0, 8000)), Resources.UNKNOWN);
        assertThat(evicted(answer)).containsExactly("v1", "v2");
        assertThat(((Answer.Evict) answer).reprieved()).isZero();
    }

    @Test
    void victimsWhoseDevicesAreNotNeededAreSparedMostImportantFirst() throws Exception {
        // card 0: v1 6000; card 1: v2 10000, v3 2000; the pod needs 12000 on one card: v2 gone is enough
        var victims = List.of(holding("v1", 0, 6000), holding("v2", 1, 10000), holding("v3", 1, 2000));
        var answer = VictimRule.decide(node(6000, 12000), asking(12000), victims, Resources.UNKNOWN);
        assertThat(evicted(answer)).containsExactly("v2");
        assertThat(((Answer.Evict) answer).reprieved()).isEqualTo(2);
        // either of two cards would do: the more important victim (first) is spared
        var first = List.of(holding("v1", 0, 10000), holding("v2", 1, 10000));
        assertThat(evicted(VictimRule.decide(node(10000, 10000), asking(12000), first, Resources.UNKNOWN)))
                .containsExactly("v2");
        assertThat(evicted(VictimRule.decide(node(10000, 10000), asking(12000), first.reversed(), Resources.UNKNOWN)))
                .containsExactly("v1");
    }

    @Test
    void aVictimTheCountResourceNeedsIsKeptEvenWhenItsDevicesAreNot() throws Exception {
        // card 0: v1 8000 and a pod that stays (2000); card 1: v2 12000. Devices alone: v1 can be spared.
        var victims = List.of(holding("v1", 0, 8000), holding("v2", 1, 12000));
        assertThat(evicted(VictimRule.decide(node(10000, 12000), asking(10000), victims, Resources.UNKNOWN)))
                .containsExactly("v2");
        // but the node has 3 nvidia.com/gpu, the staying pod counts 1: sparing v1 leaves 3 - 1 - 1 - 0 = 1 for the
        // pod's 1, fine; with 2 allocatable it leaves 0, and v1 must go
        var gpu = "nvidia.com/gpu";
        var pod = Map.of(gpu, BigDecimal.ONE, "pods", BigDecimal.ONE);
        var roomy = new Resources(
                Map.of(gpu, BigDecimal.valueOf(3), "pods", BigDecimal.valueOf(110)), Map.of(gpu, BigDecimal.ONE), pod);
        assertThat(evicted(VictimRule.decide(node(10000, 12000), asking(10000), victims, roomy)))
                .containsExactly("v2");
        var tight = new Resources(
                Map.of(gpu, BigDecimal.valueOf(2), "pods", BigDecimal.valueOf(110)), Map.of(gpu, BigDecimal.ONE), pod);
        var answer = VictimRule.decide(node(10000, 12000), asking(10000), victims, tight);
        assertThat(evicted(answer)).containsExactly("v1", "v2");
        assertThat(((Answer.Evict) answer).reprieved()).isZero();
    }

    @Test
    void aVictimKubeSchedulerNeedsForCpuIsKeptToo() throws Exception {
        var victims = List.of(
                new Victim(
                        "v1",
                        Map.of("GPU-0", new Grant(1, 8000, 0)),
                        Map.of(),
                        Map.of("cpu", new BigDecimal("4"), "pods", BigDecimal.ONE)),
                holding("v2", 1, 12000));
        var cpu = new Resources(
                Map.of("cpu", new BigDecimal("8"), "pods", BigDecimal.valueOf(110)),
                Map.of("cpu", new BigDecimal("2")),
                Map.of("cpu", new BigDecimal("3"), "pods", BigDecimal.ONE));
        // v1 stays evicted for the CPU kube-scheduler counts (8 - 2 - 4 < 3), so card 0 is free and v2 is spared
        assertThat(evicted(VictimRule.decide(node(8000, 12000), asking(10000), victims, cpu)))
                .containsExactly("v1");
        assertThat(evicted(VictimRule.decide(node(8000, 12000), asking(10000), victims, Resources.UNKNOWN)))
                .containsExactly("v2");
    }

    @Test
    void victimsWithoutDevicesOnTheNodeAndUnknownOnesAreKept() throws Exception {
        var victims = List.of(
                Victim.opaque("unknown"),
                new Victim("cpu-only", Map.of(), Map.of(), Map.of("cpu", BigDecimal.ONE)),
                holding("v1", 0, 6000),
                holding("v2", 1, 10000));
        assertThat(evicted(VictimRule.decide(node(6000, 10000), asking(12000), victims, Resources.UNKNOWN)))
                .containsExactly("unknown", "cpu-only", "v2");
    }

    @Test
    void theLastVictimIsNeverSpared() throws Exception {
        // the pod would fit beside v1; kube-scheduler chose v1 for something it counts, and refuses an empty list
        var answer = VictimRule.decide(node(2000), asking(8000), List.of(holding("v1", 0, 2000)), Resources.UNKNOWN);
        assertThat(evicted(answer)).containsExactly("v1");
    }

    @Test
    void aNodeWhereEvictingEveryVictimFreesTooLittleOnAnyOneCardIsLeftOut() throws Exception {
        // card 0: v1 4000 and 8000 that stay; card 1: v2 6000 and 6000 that stay; 20000 MiB freed in all, but the
        // pod needs 12000 on one card: 8000 and 10000 at most
        var victims = List.of(holding("v1", 0, 4000), holding("v2", 1, 6000));
        assertThat(VictimRule.decide(node(12000, 12000), asking(12000), victims, Resources.UNKNOWN))
                .isInstanceOf(Answer.LeftOut.class);
        assertThat(VictimRule.decide(null, asking(1000), victims, Resources.UNKNOWN))
                .as("a node the index does not know")
                .isInstanceOf(Answer.LeftOut.class);
        var failClosed = new UsageIndex.NodeSnapshot(node(0).view(), List.of("pod ns/x has an undecodable allocation"));
        assertThat(VictimRule.decide(failClosed, asking(1000), victims, Resources.UNKNOWN))
                .as("a node that fails closed")
                .isInstanceOf(Answer.LeftOut.class);
    }

    @Test
    void quotaFreedByVictimsOfThePodsNamespaceCounts() throws Exception {
        // the namespace may take 4000 MiB more; v1 (same namespace) gives back 8000; v2 (another namespace) nothing
        var rooms = Map.of("NVIDIA", new QuotaRoom(4000, Long.MAX_VALUE));
        var sameNamespace = new Victim(
                "v1", Map.of("GPU-0", new Grant(1, 8000, 0)), Map.of("NVIDIA", new Grant(1, 8000, 0)), Map.of());
        assertThat(evicted(
                        VictimRule.decide(node(8000), asking(10000, rooms), List.of(sameNamespace), Resources.UNKNOWN)))
                .containsExactly("v1");
        assertThat(VictimRule.decide(
                        node(8000), asking(10000, rooms), List.of(holding("v2", 0, 8000)), Resources.UNKNOWN))
                .isInstanceOf(Answer.LeftOut.class);
    }
}
