package io.hami.protocol.fit;

import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;

/**
 * Whether a device still has room for more beside what it holds: checks 6 and 11 to 14 of docs/upstream.md#fit. The
 * walk asks it for one container's grant, a bind for all its pod's grants on the device against every other pod's, so
 * the rule exists once. Sums are longs: no number of grants wraps around to free room.
 */
public final class DeviceRoom {
    /** Cores that mean a whole card. */
    public static final int WHOLE_CARD_CORES = ContainerRequest.WHOLE_CARD_CORES;

    private DeviceRoom() {}

    /**
     * @param holds what the device holds already
     * @param slots grants added, each counted against the split count
     * @param mem   MiB added
     * @param cores cores added
     * @return the first reason that applies, in upstream's order ({@link Reasons#CARD_TIME_SLICING_EXHAUSTED},
     *     {@link Reasons#CARD_INSUFFICIENT_MEMORY}, {@link Reasons#CARD_INSUFFICIENT_CORE},
     *     {@link Reasons#EXCLUSIVE_DEVICE_ALLOCATE_CONFLICT} for a whole card asked of a device in use,
     *     {@link Reasons#CARD_COMPUTE_UNITS_EXHAUSTED}), or null when the device has room
     */
    public static String lacking(DeviceUsage holds, long slots, long mem, long cores) {
        DeviceInfo device = holds.device();
        if ((long) holds.used() + slots > device.count()) {
            return Reasons.CARD_TIME_SLICING_EXHAUSTED;
        }
        if ((long) holds.usedmem() + mem > device.devmem()) {
            return Reasons.CARD_INSUFFICIENT_MEMORY;
        }
        if ((long) holds.usedcores() + cores > device.devcore()) {
            return Reasons.CARD_INSUFFICIENT_CORE;
        }
        if (device.devcore() == WHOLE_CARD_CORES && cores == WHOLE_CARD_CORES && holds.used() > 0) {
            return Reasons.EXCLUSIVE_DEVICE_ALLOCATE_CONFLICT;
        }
        if (device.devcore() != 0 && holds.usedcores() == device.devcore() && cores == 0) {
            return Reasons.CARD_COMPUTE_UNITS_EXHAUSTED;
        }
        return null;
    }
}
