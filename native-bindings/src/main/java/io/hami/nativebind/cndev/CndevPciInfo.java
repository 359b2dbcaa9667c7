package io.hami.nativebind.cndev;

/** PCI location and ids of an MLU (vendor 0xcabc). */
public record CndevPciInfo(int domain, int bus, int device, int function, int vendorId, int deviceId, int subsystemId) {

    /** {@code dddd:bb:dd.f}, the sysfs form. */
    public String busId() {
        return String.format("%04x:%02x:%02x.%x", domain, bus, device, function);
    }
}
