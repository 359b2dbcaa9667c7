package io.hami.protocol.device;

/**
 * What one container asks of one vendor, after defaults and unit factors (upstream's
 * {@code ContainerDeviceRequest}).
 *
 * @param nums             number of devices
 * @param type             the vendor's type keyword
 * @param memreq           memory per device, MiB; 0 when a percentage applies
 * @param memPercentagereq percentage of each device's memory; {@link #NO_PERCENTAGE} when unset
 * @param coresreq         cores per device
 */
public record ContainerRequest(int nums, String type, int memreq, int memPercentagereq, int coresreq) {
    /** Upstream's sentinel for "no percentage requested". */
    public static final int NO_PERCENTAGE = 101;

    public static ContainerRequest none(String type) {
        return new ContainerRequest(0, type, 0, 0, 0);
    }

    public boolean isEmpty() {
        return nums <= 0;
    }
}
