package io.hami.protocol.device;

/**
 * What one container asks of one vendor, after defaults and unit factors (upstream's
 * {@code ContainerDeviceRequest}).
 *
 * @param nums             number of devices
 * @param type             the vendor's type keyword
 * @param memreq           memory per device, MiB; 0 when a percentage applies
 * @param memPercentagereq percentage of each device's memory; {@link #NO_PERCENTAGE} when unset
 * @param coresreq         cores per device, as asked (may exceed 100; {@link #grantedCores()} is what a device gives)
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

    /** Cores a whole device has; a request for more is granted this many. */
    public static final int WHOLE_CARD_CORES = 100;

    /**
     * Cores each device is granted: the request, clamped to a whole device, as upstream's fit clamps it (requests keep
     * what the pod asked, like upstream's, so scores see it unclamped).
     */
    public int grantedCores() {
        return Math.min(coresreq, WHOLE_CARD_CORES);
    }
}
