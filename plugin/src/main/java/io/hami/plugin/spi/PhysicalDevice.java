package io.hami.plugin.spi;

import java.util.Objects;

/**
 * One card as the vendor library enumerates it.
 *
 * @param index       position in the library's order (capacity vendors map scheduler device {@code i} to it)
 * @param uuid        the library's identifier, the stem of the kubelet device IDs
 * @param schedulerId the ID the scheduler writes in pod device strings for this card: the UUID for NVIDIA and
 *                    HCU, {@code <node>-cambricon-mlu-<i>} / {@code <node>-mthreads-<i>} for capacity vendors
 * @param model       the library's model name
 * @param memoryMiB   total memory
 * @param numaNode    NUMA node, -1 when the library cannot tell
 */
public record PhysicalDevice(int index, String uuid, String schedulerId, String model, long memoryMiB, int numaNode) {
    public PhysicalDevice {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(schedulerId, "schedulerId");
        Objects.requireNonNull(model, "model");
    }
}
