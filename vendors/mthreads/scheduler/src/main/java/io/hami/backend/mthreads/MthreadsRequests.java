package io.hami.backend.mthreads;

import io.fabric8.kubernetes.api.model.Container;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.quantity.ContainerResources;
import io.hami.protocol.quantity.ResourceAmount;
import java.util.OptionalLong;

/** What a container asks of Moore Threads (docs/upstream.md#requests). */
final class MthreadsRequests {
    /** MiB per unit of the memory resource. */
    static final int MEMORY_UNIT_MIB = 512;

    private MthreadsRequests() {}

    /**
     * A count that is absent, not an integer, or outside 1..MaxInt32 is no request; memory units that are
     * not an integer or outside 0..MaxInt32/512 reject the whole request; an unusable core value is ignored
     * (cores default to 0). The resources name totals for the container, so memory and cores are divided
     * by the count (integer division). The percentage is 100 without memory and 0 with it.
     */
    static ContainerRequest of(Container container, MthreadsConfig config) {
        ContainerRequest none = ContainerRequest.none(MthreadsKeys.VENDOR);
        OptionalLong count =
                ContainerResources.read(container, config.resourceCountName()).int64();
        if (count.isEmpty() || count.getAsLong() <= 0 || count.getAsLong() > Integer.MAX_VALUE) {
            return none;
        }
        int nums = (int) count.getAsLong();
        int memory = 0;
        ResourceAmount units = ContainerResources.read(container, config.resourceMemoryName());
        if (units.present()) {
            long value = units.int64().orElse(-1);
            if (value < 0 || value > Integer.MAX_VALUE / MEMORY_UNIT_MIB) {
                return none;
            }
            memory = (int) value * MEMORY_UNIT_MIB;
        }
        int cores = ContainerResources.read(container, config.resourceCoreName())
                .clampedInt()
                .orElse(0);
        return new ContainerRequest(nums, MthreadsKeys.VENDOR, memory / nums, memory == 0 ? 100 : 0, cores / nums);
    }
}
