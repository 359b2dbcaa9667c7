package io.hami.backend.cambricon;

import io.fabric8.kubernetes.api.model.Container;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.quantity.ContainerResources;
import io.hami.protocol.quantity.ResourceAmount;
import java.util.OptionalLong;

/** What a container asks of Cambricon (docs/upstream.md#requests). */
final class CambriconRequests {
    /** MiB per unit of the memory resource. */
    static final int MEMORY_UNIT_MIB = 256;
    /** Cores when none are requested: a whole card. */
    static final int DEFAULT_CORES = 100;

    private CambriconRequests() {}

    /**
     * A count that is absent, not an integer, or outside 1..MaxInt32 is no request; memory units that are
     * not an integer or outside 0..MaxInt32/256 reject the whole request; an unusable core value is ignored.
     * The percentage is 100 without memory and 0 with it.
     */
    static ContainerRequest of(Container container, CambriconConfig config) {
        ContainerRequest none = ContainerRequest.none(CambriconKeys.VENDOR);
        OptionalLong count =
                ContainerResources.read(container, config.resourceCountName()).int64();
        if (count.isEmpty() || count.getAsLong() <= 0 || count.getAsLong() > Integer.MAX_VALUE) {
            return none;
        }
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
                .orElse(DEFAULT_CORES);
        return new ContainerRequest(
                (int) count.getAsLong(), CambriconKeys.VENDOR, memory, memory == 0 ? 100 : 0, cores);
    }
}
