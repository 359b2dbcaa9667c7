package io.hami.protocol.fit;

import io.hami.protocol.device.DeviceInfo;
import java.util.Objects;

/**
 * A node device with what is already granted on it.
 *
 * @param device    the device as discovered
 * @param used      number of grants (tasks sharing it)
 * @param usedmem   memory granted, MiB
 * @param usedcores cores granted
 */
public record DeviceUsage(DeviceInfo device, int used, int usedmem, int usedcores) {
    public DeviceUsage {
        Objects.requireNonNull(device, "device");
    }

    public static DeviceUsage idle(DeviceInfo device) {
        return new DeviceUsage(device, 0, 0, 0);
    }

    /** This usage plus one more grant of {@code mem} MiB and {@code cores}. */
    public DeviceUsage plus(int mem, int cores) {
        return new DeviceUsage(device, used + 1, usedmem + mem, usedcores + cores);
    }
}
