package io.hami.backend.mthreads;

import static io.hami.protocol.testing.KubeFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.Discovery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/upstream.md#discovery: devices synthesised from node Capacity, 16 cores each. */
class MthreadsDiscoveryTest {
    private static final String CORES = "mthreads.com/sgpu-core";
    private static final String MEMORY = "mthreads.com/sgpu-memory";
    private final MthreadsBackend backend = new MthreadsBackend(MthreadsConfig.DEFAULTS);

    private static Node withCapacity(Map<String, String> capacity) {
        return node("mt-1", Map.of(), capacity, Map.of());
    }

    @Test
    void oneDevicePerSixteenCoresWithItsShareOfMemory() {
        // 2 GPUs, 192 units of 512 MiB: 192 * 512 * 16 / 32 = 49152 MiB each
        var result = backend.discover(withCapacity(Map.of(CORES, "32", MEMORY, "192")));
        assertThat(result)
                .isEqualTo(new Discovery.Found(List.of(
                        new DeviceInfo("mt-1-mthreads-0", 0, 100, 49152, 16, "Mthreads", 0, "", true),
                        new DeviceInfo("mt-1-mthreads-1", 1, 100, 49152, 16, "Mthreads", 0, "", true))));
    }

    @Test
    void noCoreCapacityMeansNoDevices() {
        assertThat(backend.discover(withCapacity(Map.of(MEMORY, "96"))))
                .isEqualTo(new Discovery.Absent("node mt-1 has no capacity mthreads.com/sgpu-core"));
        assertThat(backend.discover(withCapacity(Map.of(CORES, "0", MEMORY, "96"))))
                .isInstanceOf(Discovery.Absent.class);
    }

    @Test
    void anUnreadableCapacityIsInvalid() {
        assertThat(backend.discover(withCapacity(Map.of(CORES, "16x")))).isInstanceOf(Discovery.Invalid.class);
    }
}
