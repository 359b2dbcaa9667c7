package io.hami.nativebind.nvml;

/**
 * What a device plugin needs of one GPU. The device node is {@code /dev/nvidia<minorNumber>};
 * {@code numaNode} is -1 where NVML cannot tell (GPUs that are not NUMA nodes answer NOT_SUPPORTED).
 */
public record NvmlDevice(
        int index,
        String uuid,
        String name,
        NvmlMemory memory,
        NvmlPciInfo pci,
        int minorNumber,
        int numaNode,
        int cudaComputeMajor,
        int cudaComputeMinor) {}
