package io.hami.scheduler.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.LegacyRegisterCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.quantity.ResourceAmount;
import io.hami.protocol.spi.DeviceBackends;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Design D9 "Node-side trust": a register never claims more than the node's Allocatable of the vendor's count. */
class RegisterCapTest {
    private static final String KEY = "hami.io/node-nvidia-register";
    private static final String GPU = "nvidia.com/gpu";
    private static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);

    private static DeviceInfo gpu(int index, int count, boolean healthy) {
        return new DeviceInfo("GPU-" + index, index, count, 16384, 100, "NVIDIA-A10", 0, "hami-core", healthy);
    }

    private static List<DeviceInfo> gpus(int n, int count) {
        return IntStream.range(0, n).mapToObj(i -> gpu(i, count, true)).toList();
    }

    private static ResourceAmount amount(String quantity) {
        return ResourceAmount.of(quantity);
    }

    @Test
    void aRegisterWithinAllocatableIsKept() {
        assertThat(RegisterCap.exceeded("n1", KEY, gpus(2, 10), GPU, amount("20")))
                .isEmpty();
        assertThat(RegisterCap.exceeded("n1", KEY, gpus(2, 10), GPU, amount("24")))
                .as("the kubelet may report more (another plugin's replicas)")
                .isEmpty();
    }

    @Test
    void moreSlotsThanAllocatableAreRefusedNamingKeyNodeAndResource() {
        assertThat(RegisterCap.exceeded("n1", KEY, gpus(2, 10), GPU, amount("19")))
                .hasValue(KEY + " on node n1 claims 2 healthy devices with 20 slots, more than the node's"
                        + " Allocatable nvidia.com/gpu=19 allows: the kubelet reports one nvidia.com/gpu per slot its"
                        + " device plugin advertises");
    }

    @Test
    void theIssuesForgeryIsRefused() {
        // 100 slots of 4 TB on a node whose kubelet reports 2 GPUs of 10 slots.
        var forged = IntStream.range(0, 100)
                .mapToObj(i -> new DeviceInfo(
                        "GPU-forged-" + i, i, 1, 4 * 1024 * 1024, 100, "NVIDIA-H100", 0, "hami-core", true))
                .toList();
        assertThat(RegisterCap.exceeded("n1", KEY, forged, GPU, amount("20")))
                .hasValueSatisfying(reason -> assertThat(reason)
                        .contains("claims 100 healthy devices with 100 slots", "Allocatable nvidia.com/gpu=20"));
    }

    @Test
    void moreDevicesThanAllocatableAreRefusedWhateverTheirSlots() {
        assertThat(RegisterCap.exceeded("n1", KEY, gpus(3, 0), GPU, amount("2")))
                .hasValueSatisfying(reason -> assertThat(reason).contains("claims 3 healthy devices with 0 slots"));
    }

    @Test
    void unhealthyDevicesAreNotCountedAsTheKubeletLeavesThemOutOfAllocatable() {
        var devices = new ArrayList<>(gpus(1, 10));
        devices.add(gpu(1, 10, false));
        assertThat(RegisterCap.exceeded("n1", KEY, devices, GPU, amount("10"))).isEmpty();
        assertThat(RegisterCap.exceeded("n1", KEY, List.of(gpu(0, 10, false)), GPU, new ResourceAmount.Absent()))
                .as("nothing healthy claims nothing")
                .isEmpty();
    }

    @Test
    void anAbsentAllocatableAllowsNothing() {
        assertThat(RegisterCap.exceeded("n1", KEY, gpus(1, 10), GPU, new ResourceAmount.Absent()))
                .hasValueSatisfying(reason -> assertThat(reason)
                        .contains("claims 1 healthy device with 10 slots", "Allocatable nvidia.com/gpu=0 (absent)"));
    }

    @Test
    void anAllocatableThatIsNotAWholeNumberRefusesTheRegister() {
        for (String q : List.of("1500m", "2.5", "-3")) {
            assertThat(RegisterCap.exceeded("n1", KEY, gpus(1, 1), GPU, amount(q)))
                    .as(q)
                    .hasValue(KEY + " on node n1 cannot be checked: Allocatable nvidia.com/gpu is not a whole number"
                            + " of slots: " + q);
        }
        assertThat(RegisterCap.exceeded("n1", KEY, gpus(1, 1), GPU, amount("junk")))
                .hasValueSatisfying(reason -> assertThat(reason).contains("not a whole number of slots: junk ("));
    }

    @Test
    void slotsAreSummedWithoutOverflow() {
        assertThat(RegisterCap.exceeded("n1", KEY, gpus(3, Integer.MAX_VALUE), GPU, amount("100000000000")))
                .isEmpty();
        assertThat(RegisterCap.exceeded("n1", KEY, gpus(3, Integer.MAX_VALUE), GPU, amount("2147483647")))
                .hasValueSatisfying(reason -> assertThat(reason).contains("with 6442450941 slots"));
    }

    // ---- where nodes are read: the vendor fails closed on that node, the others are kept ----

    private static Node node(Map<String, String> annotations, Map<String, String> allocatable) {
        var b = new NodeBuilder()
                .withNewMetadata()
                .withName("n1")
                .withAnnotations(annotations)
                .endMetadata()
                .withNewStatus()
                .endStatus();
        allocatable.forEach(
                (k, v) -> b.editStatus().addToAllocatable(k, new Quantity(v)).endStatus());
        return b.build();
    }

    @Test
    void aRegisterAboveAllocatableFailsThatVendorClosedOnThatNodeLikeAnUndecodableOne() {
        var hcu = List.of(new DeviceInfo("HCU-0", 0, 4, 65536, 100, "HCU-Z100", 0, "hami-core", true));
        Node node = node(
                Map.of(
                        KEY,
                        JsonRegisterCodec.encode(gpus(2, 10)),
                        "hami.io/node-hcu-register",
                        LegacyRegisterCodec.encode(hcu)),
                Map.of(GPU, "10", "hygon.com/hcunum", "4"));
        NodeDevices read = NodeDevices.read(node, BACKENDS, Set.of());
        assertThat(read.devices()).containsOnlyKeys("HCU");
        assertThat(read.invalid())
                .containsOnlyKeys("NVIDIA")
                .containsEntry(
                        "NVIDIA",
                        KEY + " on node n1 claims 2 healthy devices with 20 slots, more than the"
                                + " node's Allocatable nvidia.com/gpu=10 allows: the kubelet reports one nvidia.com/gpu per"
                                + " slot its device plugin advertises");
        assertThat(UsageIndex.unused("n1", read).failClosed())
                .containsExactly(
                        "NVIDIA inventory unreadable: " + read.invalid().get("NVIDIA"));

        NodeDevices fine = NodeDevices.read(
                node(Map.of(KEY, JsonRegisterCodec.encode(gpus(2, 10))), Map.of(GPU, "20")), BACKENDS, Set.of());
        assertThat(fine.invalid()).isEmpty();
        assertThat(fine.devices().get("NVIDIA")).hasSize(2);
    }

    @Test
    void capacityDiscoveredVendorsAreNotCapped() {
        // Cambricon's devices come from the node's Capacity itself; there is no register to cap.
        Node node = new NodeBuilder(node(Map.of(), Map.of()))
                .editStatus()
                .addToCapacity("cambricon.com/mlu.smlu.vcore", new Quantity("200"))
                .addToCapacity("cambricon.com/mlu.smlu.vmemory", new Quantity("128"))
                .endStatus()
                .build();
        NodeDevices read = NodeDevices.read(node, BACKENDS, Set.of());
        assertThat(read.invalid()).isEmpty();
        assertThat(read.devices().get("MLU")).hasSize(2);
    }
}
