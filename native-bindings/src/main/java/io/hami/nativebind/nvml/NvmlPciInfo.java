package io.hami.nativebind.nvml;

/**
 * PCI location of a GPU. {@code busId} is NVML's form with an 8-digit domain ({@code 00000000:07:00.0});
 * {@code pciDeviceId} packs the device id in the high and the vendor id in the low 16 bits.
 */
public record NvmlPciInfo(String busId, int domain, int bus, int device, int pciDeviceId, int pciSubSystemId) {}
