package io.hami.backend.hygon;

import io.fabric8.kubernetes.api.model.Container;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.quantity.ContainerResources;
import java.util.OptionalLong;

/** What a container asks of Hygon (docs/upstream.md#requests). */
final class HygonRequests {
    /** Cores when none are requested: a whole card. */
    static final int DEFAULT_CORES = 100;

    private HygonRequests() {}

    /**
     * A count that is absent, not an integer, or outside 1..MaxInt32 is no request. Memory and cores that are
     * integers must be in 0..MaxInt32 (memory also after the memory factor), otherwise there is no request;
     * unlike the other vendors, memory or cores that are not integers are ignored, so such a request takes
     * a whole card. The percentage is 100 without memory and 0 with it.
     */
    static ContainerRequest of(Container container, HygonConfig config) {
        ContainerRequest none = ContainerRequest.none(HygonKeys.VENDOR);
        OptionalLong count =
                ContainerResources.read(container, config.resourceCountName()).int64();
        if (count.isEmpty() || count.getAsLong() <= 0 || count.getAsLong() > Integer.MAX_VALUE) {
            return none;
        }
        int memory = 0;
        OptionalLong mem =
                ContainerResources.read(container, config.resourceMemoryName()).int64();
        if (mem.isPresent()) {
            long value = mem.getAsLong();
            if (value < 0 || value > Integer.MAX_VALUE) {
                return none;
            }
            if (config.memoryFactor() > 1) {
                value *= config.memoryFactor(); // both factors are below 2^31, so the long cannot overflow
                if (value > Integer.MAX_VALUE) {
                    return none;
                }
            }
            memory = (int) value;
        }
        int cores = DEFAULT_CORES;
        OptionalLong core =
                ContainerResources.read(container, config.resourceCoreName()).int64();
        if (core.isPresent()) {
            if (core.getAsLong() < 0 || core.getAsLong() > Integer.MAX_VALUE) {
                return none;
            }
            cores = (int) core.getAsLong();
        }
        return new ContainerRequest((int) count.getAsLong(), HygonKeys.VENDOR, memory, memory == 0 ? 100 : 0, cores);
    }
}
