package io.hami.nativebind.mtml;

/**
 * What a device plugin needs of one Moore Threads GPU. MTML has no NUMA call: {@code numaNode} is the
 * lowest node in the device's memory affinity, -1 when there is none. {@code gpuPath} is the device node.
 */
public record MtmlDevice(
        int index,
        String uuid,
        String name,
        long memoryTotalBytes,
        long memoryUsedBytes,
        MtmlPci pci,
        String gpuPath,
        int numaNode) {}
