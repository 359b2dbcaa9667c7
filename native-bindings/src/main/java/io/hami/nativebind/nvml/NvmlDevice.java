package io.hami.nativebind.nvml;

import java.util.Optional;

/**
 * What a device plugin needs of one GPU. The device node is {@code /dev/nvidia<minorNumber>};
 * {@code numaNode} is -1 where NVML cannot tell (GPUs that are not NUMA nodes answer NOT_SUPPORTED);
 * {@code memory} is empty where NVML answers NOT_SUPPORTED for it (GPUs whose memory the driver cannot report).
 */
public record NvmlDevice(
        int index,
        String uuid,
        String name,
        Optional<NvmlMemory> memory,
        NvmlPciInfo pci,
        int minorNumber,
        int numaNode,
        int cudaComputeMajor,
        int cudaComputeMinor) {}
