package io.hami.protocol.testing;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitResult;
import java.util.List;

/** Devices and usages for fit tests. */
public final class FitFixtures {
    private FitFixtures() {}

    /** A healthy device: shared by 10, 100 cores, NUMA 0, mode {@code hami-core}. */
    public static DeviceInfo device(String id, String type, int index, int devmem) {
        return new DeviceInfo(id, index, 10, devmem, 100, type, 0, "hami-core", true);
    }

    /** {@code device} on another NUMA node. */
    public static DeviceInfo onNuma(DeviceInfo device, int numa) {
        return new DeviceInfo(
                device.id(),
                device.index(),
                device.count(),
                device.devmem(),
                device.devcore(),
                device.type(),
                numa,
                device.mode(),
                device.health());
    }

    /** {@code device} with another mode. */
    public static DeviceInfo withMode(DeviceInfo device, String mode) {
        return new DeviceInfo(
                device.id(),
                device.index(),
                device.count(),
                device.devmem(),
                device.devcore(),
                device.type(),
                device.numa(),
                mode,
                device.health());
    }

    /** {@code device} with another share count and core total. */
    public static DeviceInfo withCapacity(DeviceInfo device, int count, int devcore) {
        return new DeviceInfo(
                device.id(),
                device.index(),
                count,
                device.devmem(),
                devcore,
                device.type(),
                device.numa(),
                device.mode(),
                device.health());
    }

    public static DeviceUsage idle(DeviceInfo device) {
        return DeviceUsage.idle(device);
    }

    public static DeviceUsage used(DeviceInfo device, int used, int usedmem, int usedcores) {
        return new DeviceUsage(device, used, usedmem, usedcores);
    }

    /** The device IDs of a successful fit, in the order they were taken. */
    public static List<String> grantedIds(FitResult result) {
        if (!(result instanceof FitResult.Fits(List<FitResult.Grant> grants))) {
            throw new AssertionError("expected a fit, got " + result);
        }
        return grants.stream().map(g -> g.entry().uuid()).toList();
    }

    /** The reason of a failed fit. */
    public static String reason(FitResult result) {
        if (!(result instanceof FitResult.NoFit noFit)) {
            throw new AssertionError("expected no fit, got " + result);
        }
        return noFit.reason();
    }
}
