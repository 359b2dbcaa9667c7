package io.hami.scheduler.preempt;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The verb around the rule: victims found by UID, the node's count resource, leadership, the metric. */
class PreemptionTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);

    final UsageIndex index = new UsageIndex();
    final List<Pod> pods = new ArrayList<>();
    final AtomicBoolean leading = new AtomicBoolean(true);
    final PrometheusRegistry registry = new PrometheusRegistry();
    /** One node, two 16000 MiB cards, {@code nvidia.com/gpu} allocatable 2 (one slot a card). */
    final Node node = new NodeBuilder()
            .withNewMetadata()
            .withName("n1")
            .endMetadata()
            .withNewStatus()
            .addToAllocatable("nvidia.com/gpu", new Quantity("2"))
            .addToAllocatable("pods", new Quantity("110"))
            .endStatus()
            .build();

    final Preemption preemption = new Preemption(
            index,
            new QuotaBook(BACKENDS, index),
            BACKENDS,
            SchedulingPolicy.UPSTREAM_DEFAULTS,
            leading::get,
            () -> pods,
            name -> name.equals("n1") ? node : null,
            registry);

    PreemptionTest() {
        index.putNode(
                "n1",
                Map.of(),
                Map.of(
                        "NVIDIA",
                        List.of(
                                new DeviceInfo("GPU-0", 0, 10, 16000, 100, "NVIDIA-A100", 0, "hami-core", true),
                                new DeviceInfo("GPU-1", 1, 10, 16000, 100, "NVIDIA-A100", 0, "hami-core", true))),
                Map.of());
    }

    Pod pod(String name, String node, String uuid, int memMiB) {
        var b = new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName(name)
                .withUid("uid-" + name)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("c")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .addToLimits("nvidia.com/gpumem", new Quantity(String.valueOf(memMiB)))
                .endResources()
                .endContainer()
                .endSpec();
        if (uuid != null) {
            b.editMetadata()
                    .addToAnnotations(
                            "hami.io/vgpu-devices-allocated",
                            PodDevicesCodec.encode(
                                    new PodDevices(List.of(List.of(new ContainerDevice(uuid, "NVIDIA", memMiB, 0))))))
                    .endMetadata();
        }
        Pod pod = b.build();
        if (node != null) {
            pods.add(pod);
            index.putPod("ns/" + name, PodUsage.of(pod, BACKENDS));
        }
        return pod;
    }

    PreemptionResult.Reply ask(Pod pod, String... uids) {
        var meta = new PreemptionArgs.MetaVictims(
                java.util.Arrays.stream(uids).map(PreemptionArgs.MetaPod::new).toList(), 0);
        return preemption.preempt(new PreemptionArgs(pod, null, Map.of("n1", meta)));
    }

    double answered(String outcome) {
        for (var s : registry.scrape()) {
            if (s instanceof CounterSnapshot c && c.getMetadata().getName().equals("hami_preempt_answers")) {
                return c.getDataPoints().stream()
                        .filter(p -> outcome.equals(p.getLabels().get("outcome")))
                        .mapToDouble(CounterSnapshot.CounterDataPointSnapshot::getValue)
                        .sum();
            }
        }
        throw new AssertionError("hami_preempt_answers_total is not registered");
    }

    static List<String> uids(PreemptionResult.Reply reply) {
        return reply.body().nodeNameToMetaVictims().get("n1").pods().stream()
                .map(PreemptionArgs.MetaPod::uid)
                .toList();
    }

    @Test
    void theNodesCountResourceDecidesWhetherADeviceVictimMaySkipEviction() {
        pod("v1", "n1", "GPU-0", 4000);
        pod("v2", "n1", "GPU-1", 10000);
        pod("stays", "n1", "GPU-0", 2000);
        Pod high = pod("high", null, null, 12000);
        // devices alone would spare v1 (card 1 emptied is enough), but with v1 and the pod that stays running the
        // node's 2 nvidia.com/gpu are both taken: kube-scheduler could not place the pod
        assertThat(uids(ask(high, "uid-v1", "uid-v2"))).containsExactly("uid-v1", "uid-v2");
        assertThat(answered("unchanged")).isEqualTo(1);
        node.getStatus().getAllocatable().put("nvidia.com/gpu", new Quantity("3"));
        assertThat(uids(ask(high, "uid-v1", "uid-v2"))).containsExactly("uid-v2");
        assertThat(answered("trimmed")).isEqualTo(1);
    }

    @Test
    void aNodeThatCannotHelpIsLeftOutAndCounted() {
        pod("v1", "n1", "GPU-0", 4000);
        pod("stays", "n1", "GPU-0", 8000);
        pod("stays-too", "n1", "GPU-1", 8000);
        Pod high = pod("high", null, null, 12000);
        var reply = ask(high, "uid-v1");
        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.body().nodeNameToMetaVictims()).isEmpty();
        assertThat(answered("left_out")).isEqualTo(1);
    }

    @Test
    void aFollowerAnswers503AndDecidesNothing() {
        pod("v1", "n1", "GPU-0", 4000);
        leading.set(false);
        var reply = ask(pod("high", null, null, 12000), "uid-v1");
        assertThat(reply.status()).isEqualTo(503);
        assertThat(reply.body().error()).isEqualTo(Preemption.NOT_LEADER);
        assertThat(reply.body().nodeNameToMetaVictims()).isNull();
        assertThat(answered("unchanged") + answered("trimmed") + answered("left_out"))
                .isZero();
    }
}
