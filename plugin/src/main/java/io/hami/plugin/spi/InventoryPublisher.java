package io.hami.plugin.spi;

import io.hami.protocol.device.DeviceInfo;
import java.util.List;
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

    /** Whether the scheduler expects this plugin to answer {@code Requesting_} handshakes (HCU does, NVIDIA does not). */
    boolean answersHandshake();
}
