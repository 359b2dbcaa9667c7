package io.hami.plugin.vendor;

import io.hami.plugin.spi.KubeletResource;
import io.hami.plugin.spi.PhysicalDevice;
import java.util.function.ToIntFunction;

/**
 * The kubelet resources of a capacity vendor (design D1, docs/design.md#d1: the scheduler reads the node's
 * capacity, as for Cambricon and Moore Threads): a count resource that carries the decision and resources that
 * only advertise cores and memory.
 */
public final class Capacity {
    private Capacity() {}

    /** The count resource: {@code perCard} IDs {@code <uuid>-<infix>-<n>} from 0; its Allocate serves the decision. */
    public static KubeletResource decision(String name, String infix, int perCard) {
        return new KubeletResource(name, true, KubeletResource.named(infix, 0, d -> perCard), false);
    }

    /** A resource that only advertises capacity: {@code perCard} IDs from {@code first}; its Allocate grants nothing. */
    public static KubeletResource advertised(
            String name, String infix, int first, ToIntFunction<PhysicalDevice> perCard) {
        return new KubeletResource(name, false, KubeletResource.named(infix, first, perCard), false);
    }

    /** One per {@code unitMiB} of the card's memory (truncated). */
    public static ToIntFunction<PhysicalDevice> memoryUnits(int unitMiB) {
        return d -> (int) (d.memoryMiB() / unitMiB);
    }
}
