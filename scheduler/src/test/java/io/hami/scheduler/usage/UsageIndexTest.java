package io.hami.scheduler.usage;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.fit.NodePlacement;
import io.hami.scheduler.fit.Placement;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.fit.ScoringWeights;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class UsageIndexTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);

    static DeviceInfo gpu(String id, int index) {
        return new DeviceInfo(id, index, 10, 8000, 100, "NVIDIA-A", 0, "hami-core", true);
    }

    static Pod pod(String name, String node, String allocated, String phase) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName(name)
                .addToAnnotations("hami.io/vgpu-node", node)
                .addToAnnotations("hami.io/vgpu-devices-allocated", allocated)
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName("c")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase(phase)
                .endStatus()
                .build();
    }

    static UsageIndex indexWithTwoNodes() {
        var index = new UsageIndex();
        index.putNode("n1", Map.of(), Map.of("NVIDIA", List.of(gpu("G1", 0), gpu("G2", 1))), Map.of());
        index.putNode("n2", Map.of(), Map.of("NVIDIA", List.of(gpu("G3", 0))), Map.of());
        return index;
    }

    static Map<String, DeviceUsage> usage(UsageIndex index, String node) {
        var out = new HashMap<String, DeviceUsage>();
        index.snapshot(node)
                .orElseThrow()
                .view()
                .devicesOf("NVIDIA")
                .forEach(u -> out.put(u.device().id(), u));
        return out;
    }

    /**
     * docs/upstream.md#pod-device-strings: upstream's decoder keeps the piece after the final {@code ;}, so its plugin
     * writes a consumed one-container value as {@code ;;} (ours {@code ;}) and may add an empty entry to any value;
     * usage reads every such form of the same allocation alike.
     */
    @Test
    void upstreamsFormsOfOneAllocationCountTheSame() {
        var ours = PodUsage.of(pod("a", "n1", "G1,NVIDIA,1000,10:;", "Running"), BACKENDS);
        assertThat(ours).isInstanceOf(PodUsage.Counted.class);
        for (String upstream : List.of("G1,NVIDIA,1000,10:;;", "G1,NVIDIA,1000,10:")) {
            assertThat(PodUsage.of(pod("a", "n1", upstream, "Running"), BACKENDS))
                    .as(upstream)
                    .isEqualTo(ours);
        }
        for (String consumed : List.of(";", ";;", ";;;", "")) {
            assertThat(PodUsage.of(pod("a", "n1", consumed, "Running"), BACKENDS))
                    .as(consumed)
                    .isInstanceOf(PodUsage.NotCounted.class);
        }
    }

    @Test
    void countsRunningAndPendingPodsAndForgetsFinishedOnes() {
        var index = indexWithTwoNodes();
        index.putPod("ns/a", PodUsage.of(pod("a", "n1", "G1,NVIDIA,1000,10:;", "Running"), BACKENDS));
        index.putPod("ns/b", PodUsage.of(pod("b", "n1", "G1,NVIDIA,2000,20:;", "Pending"), BACKENDS));
        assertThat(usage(index, "n1").get("G1")).isEqualTo(new DeviceUsage(gpu("G1", 0), 2, 3000, 30));
        assertThat(usage(index, "n1").get("G2").used()).isZero();

        index.putPod("ns/a", PodUsage.of(pod("a", "n1", "G1,NVIDIA,1000,10:;", "Succeeded"), BACKENDS));
        assertThat(usage(index, "n1").get("G1")).isEqualTo(new DeviceUsage(gpu("G1", 0), 1, 2000, 20));
        index.removePod("ns/b");
        assertThat(usage(index, "n1").get("G1").used()).isZero();
    }

    @Test
    void anUndecodableAllocationMakesItsNodeFailClosedUntilThePodIsFixed() {
        var index = indexWithTwoNodes();
        index.putPod("ns/bad", PodUsage.of(pod("bad", "n1", "G1,NVIDIA,12x,10:;", "Running"), BACKENDS));
        var snap = index.snapshot("n1").orElseThrow();
        assertThat(snap.failClosed())
                .singleElement()
                .asString()
                .contains("pod ns/bad has an undecodable hami.io/vgpu-devices-allocated")
                .contains("invalid memory field in container 0 device 0: \"12x\"");
        assertThat(index.snapshot("n2").orElseThrow().failClosed()).isEmpty();
        index.putPod("ns/bad", PodUsage.of(pod("bad", "n1", "G1,NVIDIA,12,10:;", "Running"), BACKENDS));
        assertThat(index.snapshot("n1").orElseThrow().failClosed()).isEmpty();
        assertThat(usage(index, "n1").get("G1").usedmem()).isEqualTo(12);
    }

    /**
     * Issue 16: a pod that skipped the webhook carries a negative allocation. It must not create capacity: its
     * node fails closed, and even past that, two full-card pods can never both get GPU-a.
     */
    @Test
    void aNegativeAllocationNeverCreatesCapacity() {
        var index = new UsageIndex();
        var card = new DeviceInfo("GPU-a", 0, 10, 40960, 100, "NVIDIA-A100", 0, "hami-core", true);
        index.putNode("n1", Map.of(), Map.of("NVIDIA", List.of(card)), Map.of());
        index.putPod(
                "ns/hostile", PodUsage.of(pod("hostile", "n1", "GPU-a,NVIDIA,-40960,-100:;", "Running"), BACKENDS));

        assertThat(index.snapshot("n1").orElseThrow().failClosed())
                .singleElement()
                .asString()
                .contains("pod ns/hostile has an undecodable hami.io/vgpu-devices-allocated")
                .contains("\"-40960\", want a whole number from 0 to 2147483647");
        assertThat(index.undecodablePods()).containsExactly(Map.entry("n1", 1));
        assertThat(usage(index, "n1").get("GPU-a")).isEqualTo(DeviceUsage.idle(card));

        // Past the fail-closed check (defence in depth): the first full card fits, the second does not.
        var fullCard = new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("full")
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .withNewResources()
                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                .addToLimits("nvidia.com/gpucores", new Quantity("100"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
        assertThat(placeOn(index, fullCard)).isInstanceOf(Placement.Placed.class);
        index.putPod("ns/first", PodUsage.of(pod("first", "n1", "GPU-a,NVIDIA,40960,100:;", "Running"), BACKENDS));
        assertThat(placeOn(index, fullCard)).isInstanceOf(Placement.Unplaced.class);

        index.removePod("ns/hostile");
        assertThat(index.snapshot("n1").orElseThrow().failClosed()).isEmpty();
        assertThat(index.undecodablePods()).isEmpty();
    }

    private static Placement placeOn(UsageIndex index, Pod pod) {
        return NodePlacement.place(
                PodRequest.of(pod, BACKENDS),
                index.snapshot("n1").orElseThrow().view(),
                BACKENDS,
                new NodePlacement.Policy("binpack", ScoringWeights.DEFAULT, false),
                Map.of(),
                Map.of());
    }

    @Test
    void usageContributionsAreNeverNegativeAndSumsNeverWrap() {
        // A model built in code (not decoded) with negative values still counts as nothing, never less.
        var negative = new io.hami.protocol.device.PodDevices(
                List.of(List.of(new io.hami.protocol.device.ContainerDevice("G1", "NVIDIA", -5000, -50))));
        assertThat(Collapse.of(negative, 0, false)).containsExactly(Map.entry("G1", new Grant(1, 0, 0)));

        var index = indexWithTwoNodes();
        for (int i = 0; i < 3; i++) {
            index.putPod(
                    "ns/big" + i,
                    PodUsage.of(pod("big" + i, "n1", "G1,NVIDIA,2147483647,2147483647:;", "Running"), BACKENDS));
        }
        assertThat(usage(index, "n1").get("G1"))
                .isEqualTo(new DeviceUsage(gpu("G1", 0), 3, Integer.MAX_VALUE, Integer.MAX_VALUE));
        index.removePod("ns/big0");
        index.removePod("ns/big1");
        assertThat(usage(index, "n1").get("G1"))
                .isEqualTo(new DeviceUsage(gpu("G1", 0), 1, Integer.MAX_VALUE, Integer.MAX_VALUE));
        index.removePod("ns/big2");
        assertThat(usage(index, "n1").get("G1")).isEqualTo(DeviceUsage.idle(gpu("G1", 0)));
    }

    @Test
    void anUnboundPodCountsOnlyWhileItsBindIsInFlight() {
        var index = indexWithTwoNodes();
        var unbound = new PodBuilder(pod("u", "n1", "G1,NVIDIA,1000,10:;", "Pending"))
                .editSpec()
                .withNodeName(null)
                .endSpec();
        index.putPod("ns/u", PodUsage.of(unbound.build(), BACKENDS));
        assertThat(usage(index, "n1").get("G1").used()).isZero();
        index.putPod(
                "ns/u",
                PodUsage.of(
                        unbound.editMetadata()
                                .addToAnnotations("hami.io/bind-phase", "allocating")
                                .endMetadata()
                                .build(),
                        BACKENDS));
        assertThat(usage(index, "n1").get("G1").usedmem()).isEqualTo(1000);
    }

    @Test
    void invalidInventoryIsReportedPerVendor() {
        var index = new UsageIndex();
        index.putNode("n", Map.of(), Map.of(), Map.of("HCU", "invalid memory field in device 0: \"x\""));
        assertThat(index.snapshot("n").orElseThrow().failClosed())
                .containsExactly("HCU inventory unreadable: invalid memory field in device 0: \"x\"");
        assertThat(index.snapshot("unknown")).isEmpty();
    }

    /**
     * Model check: after any sequence of pod writes, moves and deletes, every device's usage equals the sum
     * recomputed from scratch over the pods' last recorded state.
     */
    @FuzzTest
    void incrementalUsageEqualsARecomputationFromScratch(FuzzedDataProvider data) {
        long seed = data.consumeLong();
        int steps = data.consumeInt(1, 60);
        var index = indexWithTwoNodes();
        var model = new HashMap<String, PodUsage>();
        var rnd = new Random(seed);
        String[] nodes = {"n1", "n2"};
        String[][] uuids = {{"G1", "G2"}, {"G3"}};
        for (int s = 0; s < steps; s++) {
            String key = "ns/p" + rnd.nextInt(6);
            if (rnd.nextInt(5) == 0) {
                index.removePod(key);
                model.remove(key);
                continue;
            }
            int n = rnd.nextInt(2);
            var b = new StringBuilder();
            int containers = 1 + rnd.nextInt(3);
            for (int c = 0; c < containers; c++) {
                if (rnd.nextBoolean()) {
                    String[] u = uuids[n];
                    b.append(u[rnd.nextInt(u.length)])
                            .append(",NVIDIA,")
                            .append(rnd.nextInt(3000))
                            .append(',')
                            .append(rnd.nextInt(50))
                            .append(':');
                }
                b.append(';');
            }
            String phase = rnd.nextInt(6) == 0 ? "Failed" : "Running";
            var usage = PodUsage.of(pod(key.substring(3), nodes[n], b.toString(), phase), BACKENDS);
            index.putPod(key, usage);
            model.put(key, usage);
        }
        for (int n = 0; n < 2; n++) {
            var expected = new HashMap<String, Grant>();
            for (PodUsage u : model.values()) {
                if (u instanceof PodUsage.Counted c && c.node().equals(nodes[n])) {
                    c.grants().forEach((uuid, g) -> expected.merge(uuid, g, Grant::plus));
                }
            }
            var actual = usage(index, nodes[n]);
            for (String uuid : uuids[n]) {
                Grant e = expected.getOrDefault(uuid, Grant.ZERO);
                DeviceUsage a = actual.get(uuid);
                assertThat(new Grant(a.used(), a.usedmem(), a.usedcores()))
                        .as("%s on %s", uuid, nodes[n])
                        .isEqualTo(e);
            }
        }
        assertThat(new ArrayList<>(index.nodeNames())).containsExactly("n1", "n2");
    }
}
