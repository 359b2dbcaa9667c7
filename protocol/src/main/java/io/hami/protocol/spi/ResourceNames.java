package io.hami.protocol.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * Extended-resource names one vendor reads from containers (configurable, design D1 in docs/design.md#d1).
 *
 * @param count            number of devices, for example {@code nvidia.com/gpu}
 * @param memory           memory, for example {@code nvidia.com/gpumem}
 * @param memoryPercentage percentage of device memory; only NVIDIA has one
 * @param cores            compute share, for example {@code nvidia.com/gpucores}
 */
public record ResourceNames(String count, String memory, Optional<String> memoryPercentage, String cores) {
    public ResourceNames {
        Objects.requireNonNull(count, "count");
        Objects.requireNonNull(memory, "memory");
        Objects.requireNonNull(memoryPercentage, "memoryPercentage");
        Objects.requireNonNull(cores, "cores");
    }

    /** Every name, count first; a pod asks for this vendor when any of them appears. */
    public java.util.List<String> all() {
        var names = new java.util.ArrayList<String>();
        names.add(count);
        names.add(memory);
        memoryPercentage.ifPresent(names::add);
        names.add(cores);
        return names.stream().filter(n -> !n.isEmpty()).toList();
    }
}
