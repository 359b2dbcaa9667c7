package io.hami.scheduler.fit;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.fit.Reasons;
import io.hami.protocol.spi.DeviceBackends;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whole-pod placement with the real vendor backends found through ServiceLoader. */
class NodePlacementTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);

    static DeviceInfo gpu(String id, int index) {
        return new DeviceInfo(id, index, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true);
    }

    static DeviceInfo hcu(String id, int index) {
        return new DeviceInfo(id, index, 10, 16000, 100, "HCU-Z100", 0, "hami-core", true);
    }

    static Container container(String name, String... resources) {
        var limits = new LinkedHashMap<String, Quantity>();
        for (int i = 0; i < resources.length; i += 2) {
            limits.put(resources[i], new Quantity(resources[i + 1]));
        }
        return new ContainerBuilder()
                .withName(name)
                .withNewResources()
                .withLimits(limits)
                .endResources()
                .build();
    }

    static Pod pod(List<Container> init, List<Container> app) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName("p")
                .endMetadata()
                .withNewSpec()
                .withInitContainers(init)
                .withContainers(app)
                .endSpec()
                .build();
    }

    /** Upstream's text of an unplaced pod, or null when it was placed. */
    static String text(Placement placement) {
        return placement instanceof Placement.Unplaced u ? u.denial().text() : null;
    }

    static Placement place(Pod pod, NodeView node, String gpuPolicy) {
        return NodePlacement.place(
                PodRequest.of(pod, BACKENDS),
                node,
                BACKENDS,
                new NodePlacement.Policy(gpuPolicy, ScoringWeights.DEFAULT, false),
                Map.of(),
                Map.of());
    }

    final NodeView nvidiaNode = new NodeView(
            "n1",
            Map.of(),
            Map.of("NVIDIA", List.of(new DeviceUsage(gpu("G0", 0), 5, 4000, 50), DeviceUsage.idle(gpu("G1", 1)))));

    /** Issue 16: such pods used to read as "no request", fit every node and bind without a grant. */
    @Test
    void anAmountNoVendorCanRepresentFitsNoNodeWithTheReasonNeverAsNoRequest() {
        var noGpus = new NodeView("cpu-only", Map.of(), Map.of());
        for (var c : List.of(
                container("c", "nvidia.com/gpu", "2147483648"),
                container("c", "nvidia.com/gpu", "4Gi"),
                container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "4Gi"),
                container("c", "nvidia.com/gpumem", "4Gi"),
                container("c", "nvidia.com/gpu", "1", "nvidia.com/gpucores", "2147483648"),
                container("c", "hygon.com/hcunum", "1e18"))) {
            var p = pod(List.of(), List.of(c));
            PodRequest request = PodRequest.of(p, BACKENDS);
            assertThat(request.isEmpty()).as("%s", c.getResources()).isFalse();
            for (NodeView node : List.of(nvidiaNode, noGpus)) {
                assertThat(place(p, node, "binpack"))
                        .as("%s on %s", c.getResources(), node.name())
                        .isInstanceOfSatisfying(
                                Placement.Unplaced.class,
                                u -> assertThat(u.denial().text())
                                        .startsWith("unrepresentable request: container c: ")
                                        .contains(" is out of range; "));
            }
        }
        var init = pod(
                List.of(container("i", "nvidia.com/gpumem", "1.5")), List.of(container("c", "nvidia.com/gpu", "1")));
        assertThat(PodRequest.of(init, BACKENDS).refusal())
                .isEqualTo(
                        "container i: nvidia.com/gpumem \"1.5\" is not a whole number; NVIDIA takes a whole number from 0 to 2147483647 (MiB)");
        assertThat(PodRequest.of(pod(List.of(), List.of(container("c", "cpu", "1"))), BACKENDS)
                        .isEmpty())
                .isTrue();
    }

    @Test
    void binpackChoosesTheFullerDeviceAndSpreadTheEmptierOne() {
        var p = pod(List.of(), List.of(container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000")));
        var binpack = (Placement.Placed) place(p, nvidiaNode, "binpack");
        assertThat(binpack.devices().get("NVIDIA"))
                .isEqualTo(new PodDevices(List.of(List.of(new ContainerDevice("G0", "NVIDIA", 1000, 0)))));
        var spread = (Placement.Placed) place(p, nvidiaNode, "spread");
        assertThat(spread.devices().get("NVIDIA").containers().getFirst())
                .extracting(ContainerDevice::uuid)
                .containsExactly("G1");
    }

    @Test
    void entriesLineUpWithContainersInitFirst() {
        var p = pod(
                List.of(container("init", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "6000")),
                List.of(container("sidecar"), container("main", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000")));
        var placed = (Placement.Placed) place(
                p, new NodeView("n", Map.of(), Map.of("NVIDIA", List.of(DeviceUsage.idle(gpu("G0", 0))))), "binpack");
        assertThat(placed.devices().get("NVIDIA"))
                .isEqualTo(new PodDevices(List.of(
                        List.of(new ContainerDevice("G0", "NVIDIA", 6000, 0)),
                        List.of(),
                        List.of(new ContainerDevice("G0", "NVIDIA", 1000, 0)))));
    }

    @Test
    void underAQuotaTheInitPeakAndTheAppSumCountNotTheirTotal() {
        var node = new NodeView(
                "n",
                Map.of(),
                Map.of("NVIDIA", List.of(DeviceUsage.idle(gpu("G0", 0)), DeviceUsage.idle(gpu("G1", 1)))));
        var policy = new NodePlacement.Policy("spread", ScoringWeights.DEFAULT, false);
        var room = Map.of("NVIDIA", new QuotaRoom(5000, Long.MAX_VALUE));
        // init 3000, then apps of 2000 + 3000: the pod holds max(3000, 5000) = 5000 at any time
        var p = pod(
                List.of(container("i", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000")),
                List.of(
                        container("a", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "2000"),
                        container("b", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000")));
        assertThat(NodePlacement.place(PodRequest.of(p, BACKENDS), node, BACKENDS, policy, Map.of(), room))
                .isInstanceOf(Placement.Placed.class);
        // the app containers alone need 5001
        var over = pod(
                List.of(),
                List.of(
                        container("a", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "2001"),
                        container("b", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000")));
        assertThat(NodePlacement.place(PodRequest.of(over, BACKENDS), node, BACKENDS, policy, Map.of(), room))
                .extracting(NodePlacementTest::text)
                .isEqualTo("2/2 " + Reasons.RESOURCE_QUOTA_NOT_FIT);
        // one init container alone over the room
        var bigInit = pod(List.of(container("i", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "5001")), List.of());
        assertThat(NodePlacement.place(PodRequest.of(bigInit, BACKENDS), node, BACKENDS, policy, Map.of(), room))
                .extracting(NodePlacementTest::text)
                .isEqualTo("2/2 " + Reasons.RESOURCE_QUOTA_NOT_FIT);
        // another vendor's room leaves NVIDIA alone
        assertThat(NodePlacement.place(
                        PodRequest.of(over, BACKENDS),
                        node,
                        BACKENDS,
                        policy,
                        Map.of(),
                        Map.of("HCU", new QuotaRoom(0, 0))))
                .isInstanceOf(Placement.Placed.class);
    }

    @Test
    void initContainersDoNotAddUpButAppContainersDo() {
        var node = new NodeView("n", Map.of(), Map.of("NVIDIA", List.of(DeviceUsage.idle(gpu("G0", 0)))));
        var twoInits = pod(
                List.of(
                        container("i1", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "6000"),
                        container("i2", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "6000")),
                List.of(container("app", "cpu", "1")));
        assertThat(place(twoInits, node, "spread")).isInstanceOf(Placement.Placed.class);
        var twoApps = pod(
                List.of(),
                List.of(
                        container("a1", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "6000"),
                        container("a2", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "6000")));
        assertThat(place(twoApps, node, "spread"))
                .extracting(NodePlacementTest::text)
                .isEqualTo("1/1 CardInsufficientMemory");
    }

    @Test
    void aPodAskingForTwoVendorsGetsOneEntryListPerVendor() {
        var node = new NodeView(
                "n",
                Map.of(),
                Map.of(
                        "NVIDIA", List.of(DeviceUsage.idle(gpu("G0", 0))),
                        "HCU", List.of(DeviceUsage.idle(hcu("H0", 0)))));
        var p = pod(
                List.of(),
                List.of(
                        container("a", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"),
                        container(
                                "b", "hygon.com/hcunum", "1", "hygon.com/hcumem", "2000", "hygon.com/hcucores", "30")));
        var placed = (Placement.Placed) place(p, node, "spread");
        assertThat(placed.devices()).containsOnlyKeys("NVIDIA", "HCU");
        assertThat(placed.devices().get("NVIDIA").containers())
                .containsExactly(List.of(new ContainerDevice("G0", "NVIDIA", 1000, 0)), List.of());
        assertThat(placed.devices().get("HCU").containers())
                .containsExactly(List.of(), List.of(new ContainerDevice("H0", "HCU", 2000, 30)));
    }

    @Test
    void reportsWhyANodeDoesNotFit() {
        var tooMany = pod(List.of(), List.of(container("c", "nvidia.com/gpu", "3")));
        assertThat(place(tooMany, nvidiaNode, "spread"))
                .extracting(NodePlacementTest::text)
                .isEqualTo("NodeInsufficientDevice");
        var tooBig = pod(List.of(), List.of(container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "9000")));
        assertThat(place(tooBig, nvidiaNode, "spread"))
                .extracting(NodePlacementTest::text)
                .isEqualTo("2/2 CardInsufficientMemory");
        // The same denials as values: metrics and events read these fields, not the text.
        assertThat(place(tooMany, nvidiaNode, "spread")).isEqualTo(new Placement.Unplaced(Denial.TOO_FEW_DEVICES));
        assertThat(place(tooBig, nvidiaNode, "spread"))
                .isEqualTo(new Placement.Unplaced(Denial.devices(Map.of(Reasons.CARD_INSUFFICIENT_MEMORY, 2), 2)));
        var noSuchVendor = pod(List.of(), List.of(container("c", "hygon.com/hcunum", "1")));
        assertThat(place(noSuchVendor, nvidiaNode, "spread"))
                .extracting(NodePlacementTest::text)
                .isEqualTo("NodeInsufficientDevice");
    }

    @Test
    void anExclusiveWholeCardRequestDoesNotShareADevice() {
        var busy = new NodeView(
                "n",
                Map.of(),
                Map.of(
                        "NVIDIA",
                        List.of(new DeviceUsage(gpu("G0", 0), 1, 1000, 0), new DeviceUsage(gpu("G1", 1), 1, 1000, 0))));
        var exclusive = pod(
                List.of(),
                List.of(container(
                        "c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000", "nvidia.com/gpucores", "100")));
        assertThat(place(exclusive, busy, "binpack"))
                .extracting(NodePlacementTest::text)
                .isEqualTo("2/2 ExclusiveDeviceAllocateConflict");
        assertThat(place(exclusive, nvidiaNode, "binpack")).isInstanceOf(Placement.Placed.class);
    }

    @Test
    void aPodWithoutManagedResourcesAsksNothing() {
        assertThat(PodRequest.of(pod(List.of(), List.of(container("c", "cpu", "1"))), BACKENDS)
                        .isEmpty())
                .isTrue();
    }
}
