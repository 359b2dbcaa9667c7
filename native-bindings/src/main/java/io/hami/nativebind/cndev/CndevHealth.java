package io.hami.nativebind.cndev;

/** {@code cndevGetCardHealthState}: the plugin treats a card as usable when it is healthy and its driver runs. */
public record CndevHealth(boolean healthy, int deviceState, int driverState) {

    public boolean usable() {
        return healthy && deviceState == Cndev.DEVICE_GOOD && driverState == Cndev.DRIVER_RUNNING;
    }
}
