package io.hami.scheduler.fit;

import static io.hami.scheduler.fit.NodePlacementTest.BACKENDS;
import static io.hami.scheduler.fit.NodePlacementTest.container;
import static io.hami.scheduler.fit.NodePlacementTest.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.spi.Discovery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * docs/upstream.md#lenient-inputs, one row per input: what filter and bind make of it. Both read a pod with
 * {@link PodRequest#of} and place it with {@link NodePlacement#place} (filter's fast path answers the same, which
 * {@code QuickFitEquivalenceTest} checks with these values too), so the answer here is the answer of both.
 */
class LenientInputsTest {

    /** One idle device per vendor, each on its own node; the capacity vendors' as their discovery makes them. */
    static final Map<String, NodeView> NODES = Map.of(
            "NVIDIA",
            node("gpu", "NVIDIA", List.of(new DeviceInfo("G0", 0, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true))),
            "HCU",
            node("hcu", "HCU", List.of(new DeviceInfo("H0", 0, 10, 16000, 100, "HCU-Z100", 0, "hami-core", true))),
            "MLU",
            node(
                    "mlu",
                    "MLU",
                    capacity("mlu", "cambricon.com/mlu.smlu.vcore", "100", "cambricon.com/mlu.smlu.vmemory", "64")),
            "Mthreads",
            node("mt", "Mthreads", capacity("mt", "mthreads.com/sgpu-core", "16", "mthreads.com/sgpu-memory", "96")));

    static NodeView node(String name, String vendor, List<DeviceInfo> devices) {
        return new NodeView(
                name,
                Map.of(),
                Map.of(vendor, devices.stream().map(DeviceUsage::idle).toList()));
    }

    /** The devices the vendor's own capacity discovery finds on a node with these capacities. */
    static List<DeviceInfo> capacity(String name, String... resources) {
        var node =
                new NodeBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus();
        for (int i = 0; i < resources.length; i += 2) {
            node.addToCapacity(resources[i], new Quantity(resources[i + 1]));
        }
        var built = node.endStatus().build();
        String vendor = resources[0].startsWith("cambricon") ? "MLU" : "Mthreads";
        var found = BACKENDS.byVendor(vendor).orElseThrow().discover(built);
        return ((Discovery.Found) found).devices();
    }

    /**
     * @param vendor    the node to place on
     * @param container what the pod asks
     * @param outcome   the grant written for the container ({@code uuid,TYPE,memMiB,cores:}), or the start of the
     *                  reason filter gives and bind fails with
     */
    record Case(String vendor, Container container, String outcome) {
        @Override
        public String toString() {
            return vendor + " " + container.getResources().getLimits();
        }
    }

    static Case of(String vendor, String outcome, String... resources) {
        return new Case(vendor, container("c", resources), outcome);
    }

    static final String OUT_OF_RANGE = "unrepresentable request: container c: ";

    static final List<Arguments> CASES = List.of(
            // cores above a whole device: accepted, granted as a whole device (upstream's fit clamps)
            Arguments.of(of("NVIDIA", "G0,NVIDIA,8000,100:", "nvidia.com/gpu", "1", "nvidia.com/gpucores", "120")),
            Arguments.of(
                    of("NVIDIA", "G0,NVIDIA,8000,100:", "nvidia.com/gpu", "1", "nvidia.com/gpucores", "2147483647")),
            Arguments.of(of("HCU", "H0,HCU,16000,100:", "hygon.com/hcunum", "1", "hygon.com/hcucores", "101")),
            Arguments.of(of(
                    "MLU",
                    "mlu-cambricon-mlu-0,MLU,16384,100:",
                    "cambricon.com/vmlu",
                    "1",
                    "cambricon.com/mlu.smlu.vcore",
                    "150")),
            // Moore Threads: 120 sixteenths for one GPU is read, clamped to 100, and no 16-core GPU has that
            Arguments.of(of(
                    "Mthreads",
                    "1/1 CardInsufficientCore",
                    "mthreads.com/vgpu",
                    "1",
                    "mthreads.com/sgpu-memory",
                    "2",
                    "mthreads.com/sgpu-core",
                    "120")),
            // memory percentage: above 100 clamped, non-positive ignored (no memory asked: a whole device)
            Arguments.of(
                    of("NVIDIA", "G0,NVIDIA,8000,0:", "nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", "150")),
            Arguments.of(
                    of("NVIDIA", "G0,NVIDIA,8000,0:", "nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", "101")),
            Arguments.of(
                    of("NVIDIA", "G0,NVIDIA,8000,0:", "nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", "-1")),
            Arguments.of(
                    of("NVIDIA", "G0,NVIDIA,4000,0:", "nvidia.com/gpu", "1", "nvidia.com/gpumem-percentage", "50")),
            Arguments.of(of(
                    "NVIDIA",
                    "G0,NVIDIA,1000,0:",
                    "nvidia.com/gpu",
                    "1",
                    "nvidia.com/gpumem-percentage",
                    "-1",
                    "nvidia.com/gpumem",
                    "1000")),
            // Kubernetes' canonical form, as upstream's webhook writes 3000 back
            Arguments.of(of("NVIDIA", "G0,NVIDIA,3000,0:", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "3k")),
            Arguments.of(of("HCU", "H0,HCU,3000,100:", "hygon.com/hcunum", "1", "hygon.com/hcumem", "3k")),
            Arguments.of(of(
                    "MLU",
                    "mlu-cambricon-mlu-0,MLU,1024,100:",
                    "cambricon.com/vmlu",
                    "1",
                    "cambricon.com/mlu.smlu.vmemory",
                    "4")),
            // what upstream reads unsafely (as no request, or wrapped to int32): refused, with the reason
            Arguments.of(of(
                    "NVIDIA",
                    OUT_OF_RANGE + "nvidia.com/gpumem \"16Gi\" (17179869184) is out of range;",
                    "nvidia.com/gpu",
                    "1",
                    "nvidia.com/gpumem",
                    "16Gi")),
            Arguments.of(of(
                    "NVIDIA",
                    OUT_OF_RANGE + "nvidia.com/gpumem \"16.0Gi\" is not a whole number;",
                    "nvidia.com/gpu",
                    "1",
                    "nvidia.com/gpumem",
                    "16.0Gi")),
            Arguments.of(of(
                    "NVIDIA",
                    OUT_OF_RANGE + "nvidia.com/gpu \"4294967297\" is out of range;",
                    "nvidia.com/gpu",
                    "4294967297")),
            Arguments.of(of("NVIDIA", OUT_OF_RANGE + "nvidia.com/gpu \"-1\" is out of range;", "nvidia.com/gpu", "-1")),
            Arguments.of(of(
                    "NVIDIA",
                    OUT_OF_RANGE + "nvidia.com/gpucores \"4294967346\" is out of range;",
                    "nvidia.com/gpu",
                    "1",
                    "nvidia.com/gpucores",
                    "4294967346")),
            Arguments.of(of(
                    "NVIDIA",
                    OUT_OF_RANGE + "nvidia.com/gpucores \"-5\" is out of range;",
                    "nvidia.com/gpu",
                    "1",
                    "nvidia.com/gpucores",
                    "-5")),
            Arguments.of(of(
                    "MLU",
                    OUT_OF_RANGE + "cambricon.com/vmlu \"4294967297\" is out of range;",
                    "cambricon.com/vmlu",
                    "4294967297")),
            Arguments.of(of(
                    "MLU",
                    OUT_OF_RANGE + "cambricon.com/mlu.smlu.vmemory \"8Mi\" (8388608) is out of range;",
                    "cambricon.com/vmlu",
                    "1",
                    "cambricon.com/mlu.smlu.vmemory",
                    "8Mi")),
            Arguments.of(of(
                    "Mthreads",
                    OUT_OF_RANGE + "mthreads.com/vgpu \"1e10\" (10000000000) is out of range;",
                    "mthreads.com/vgpu",
                    "1e10")),
            Arguments.of(of(
                    "HCU",
                    OUT_OF_RANGE + "hygon.com/hcumem \"16Gi\" (17179869184) is out of range;",
                    "hygon.com/hcunum",
                    "1",
                    "hygon.com/hcumem",
                    "16Gi")),
            Arguments.of(of(
                    "HCU",
                    OUT_OF_RANGE + "hygon.com/hcucores \"4Gi\" (4294967296) is out of range;",
                    "hygon.com/hcunum",
                    "1",
                    "hygon.com/hcucores",
                    "4Gi")));

    @ParameterizedTest(name = "{0}")
    @FieldSource("CASES")
    void filterAndBindReadEachInputAsTheListSays(Case c) {
        var request = PodRequest.of(pod(List.of(), List.of(c.container())), BACKENDS);
        var placement = NodePlacement.place(
                request,
                NODES.get(c.vendor()),
                BACKENDS,
                new NodePlacement.Policy("binpack", ScoringWeights.DEFAULT, false),
                Map.of(),
                Map.of());
        if (c.outcome().endsWith(":")) {
            assertThat(placement)
                    .isInstanceOfSatisfying(
                            Placement.Placed.class,
                            p -> assertThat(PodDevicesCodec.encode(p.devices().get(c.vendor())))
                                    .isEqualTo(c.outcome() + ";"));
        } else {
            assertThat(placement)
                    .isInstanceOfSatisfying(
                            Placement.Unplaced.class,
                            u -> assertThat(u.denial().text()).startsWith(c.outcome()));
        }
    }
}
