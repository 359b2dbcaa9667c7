package io.hami.protocol.device;

import java.util.List;

/**
 * One vendor's allocation for a whole pod: entry {@code i} belongs to container {@code i}, init containers
 * first, then app containers. A container without a device of this vendor has an empty entry.
 */
public record PodDevices(List<List<ContainerDevice>> containers) {
    public static final PodDevices NONE = new PodDevices(List.of());

    public PodDevices {
        containers = containers.stream().map(List::copyOf).toList();
    }

    /** True when no container has a device left (for example after every entry was consumed). */
    public boolean isEmpty() {
        return containers.stream().allMatch(List::isEmpty);
    }

    /** Index of the first container that still has devices, or -1. */
    public int firstNonEmpty() {
        for (int i = 0; i < containers.size(); i++) {
            if (!containers.get(i).isEmpty()) {
                return i;
            }
        }
        return -1;
    }

    /** A copy with container {@code i} emptied (what a device plugin patches back after Allocate). */
    public PodDevices consume(int i) {
        var copy = new java.util.ArrayList<>(containers);
        copy.set(i, List.of());
        return new PodDevices(copy);
    }
}
