package io.hami.plugin.spi;

import io.hami.protocol.device.DeviceInfo;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A vendor whose scheduler reads a register annotation (NVIDIA, HCU). The register loop encodes what
 * {@link #scan} returns in the backend's register format.
 */
public interface InventoryPublisher {

    /**
     * The devices as the scheduler should see them now, scanned from the vendor library afresh. The type of
     * each device contains the vendor keyword.
     *
     * @param unhealthy indexes of the cards the health source reports unhealthy
     * @throws RuntimeException when the library fails; the loop retries
     */
    List<DeviceInfo> scan(Set<Integer> unhealthy);

    /**
     * Further Node annotations derived from the devices {@link #scan} just returned, written in the same patch as the
     * register annotation (NVIDIA's pair scores). A key left out of one cycle keeps its last value on the Node.
     */
    default Map<String, String> annotations(List<DeviceInfo> devices) {
        return Map.of();
    }

    /** Whether the scheduler expects this plugin to answer {@code Requesting_} handshakes (HCU does, NVIDIA does not). */
    boolean answersHandshake();
}
