package io.hami.backend.cambricon;

import static io.hami.protocol.testing.KubeFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.Discovery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/upstream.md#discovery: devices synthesised from node Capacity. */
class CambriconDiscoveryTest {
    private static final String VCORE = "cambricon.com/mlu.smlu.vcore";
    private static final String VMEMORY = "cambricon.com/mlu.smlu.vmemory";
    private final CambriconBackend backend = new CambriconBackend(CambriconConfig.DEFAULTS);

    private static Node withCapacity(Map<String, String> capacity) {
        return node("mlu-1", Map.of(), capacity, Map.of());
    }

    @Test
    void oneDevicePerHundredCoresWithItsShareOfMemory() {
        // 2 cards, 384 units of 256 MiB in total: 384 * 256 * 100 / 200 = 49152 MiB each
        var result = backend.discover(withCapacity(Map.of(VCORE, "200", VMEMORY, "384")));
        assertThat(result)
                .isEqualTo(new Discovery.Found(List.of(
                        new DeviceInfo("mlu-1-cambricon-mlu-0", 0, 100, 49152, 100, "MLU", 0, "", true),
                        new DeviceInfo("mlu-1-cambricon-mlu-1", 1, 100, 49152, 100, "MLU", 0, "", true))));
    }

    @Test
    void aPartialHundredStillMakesADevice() {
        var result = (Discovery.Found) backend.discover(withCapacity(Map.of(VCORE, "150", VMEMORY, "100")));
        assertThat(result.devices())
                .extracting(DeviceInfo::id)
                .containsExactly("mlu-1-cambricon-mlu-0", "mlu-1-cambricon-mlu-1");
        assertThat(result.devices().getFirst().devmem()).isEqualTo(100 * 256 * 100 / 150);
    }

    @Test
    void noCoreCapacityMeansNoDevices() {
        assertThat(backend.discover(withCapacity(Map.of(VMEMORY, "100"))))
                .isEqualTo(new Discovery.Absent("node mlu-1 has no capacity cambricon.com/mlu.smlu.vcore"));
        assertThat(backend.discover(withCapacity(Map.of(VCORE, "0")))).isInstanceOf(Discovery.Absent.class);
        assertThat(backend.discover(node("mlu-1", Map.of()))).isInstanceOf(Discovery.Absent.class);
    }

    @Test
    void anUnreadableCapacityIsInvalid() {
        assertThat(backend.discover(withCapacity(Map.of(VCORE, "200", VMEMORY, "1.5"))))
                .isEqualTo(new Discovery.Invalid(
                        "node mlu-1: capacity cambricon.com/mlu.smlu.vmemory is not an integer: 1.5"));
    }

    @Test
    void theCapacityNamesFollowTheConfiguration() {
        var config = new CambriconConfig("x/count", "x/mem", "x/cores");
        var result = new CambriconBackend(config).discover(withCapacity(Map.of("x/cores", "100", "x/mem", "4")));
        assertThat(result)
                .isEqualTo(new Discovery.Found(
                        List.of(new DeviceInfo("mlu-1-cambricon-mlu-0", 0, 100, 1024, 100, "MLU", 0, "", true))));
    }
}
