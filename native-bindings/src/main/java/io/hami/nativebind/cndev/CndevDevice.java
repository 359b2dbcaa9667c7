package io.hami.nativebind.cndev;

/**
 * What a device plugin needs of one MLU. Memory is in MiB as CNDev reports it; the device node is
 * {@code /dev/cambricon_dev<minorNumber>}. The Cambricon plugin reports the UUID as {@code "MLU-" + uuid}.
 */
public record CndevDevice(
        int index,
        int handle,
        String uuid,
        String name,
        long memoryTotalMiB,
        long memoryUsedMiB,
        CndevPciInfo pci,
        int numaNode,
        int minorNumber) {}
