package io.hami.backend.nvidia;

import io.fabric8.kubernetes.api.model.Container;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.quantity.ContainerResources;
import io.hami.protocol.quantity.ResourceAmount;
import java.util.OptionalLong;

/** What a container asks of NVIDIA (docs/upstream.md#requests). */
final class NvidiaRequests {
    private NvidiaRequests() {}

    /**
     * A count that is absent, not an integer, or outside 1..MaxInt32 is no request; a memory value that is
     * not an integer or out of range rejects the whole request; an unusable percentage or core value is
     * ignored.
     */
    static ContainerRequest of(Container container, NvidiaConfig config) {
        ContainerRequest none = ContainerRequest.none(NvidiaKeys.VENDOR);
        OptionalLong count = ContainerResources.read(
                        container, config.resources().resourceCountName())
                .int64();
        if (count.isEmpty() || count.getAsLong() <= 0 || count.getAsLong() > Integer.MAX_VALUE) {
            return none;
        }

        int factor = Math.max(config.requests().memoryFactor(), 1);
        int memory = 0;
        ResourceAmount memoryAmount =
                ContainerResources.read(container, config.resources().resourceMemoryName());
        if (memoryAmount.present()) {
            long mem = memoryAmount.int64().orElse(-1);
            if (mem < 0 || mem > Integer.MAX_VALUE / factor) {
                return none;
            }
            memory = (int) mem * factor;
        }

        int percentage = ContainerRequest.NO_PERCENTAGE;
        long requested = ContainerResources.read(container, config.resources().resourceMemoryPercentageName())
                .int64()
                .orElse(0);
        if (requested > 0) {
            percentage = (int) Math.min(requested, 100);
        }
        if (percentage == ContainerRequest.NO_PERCENTAGE && memory == 0) {
            if (config.requests().defaultMemory() != 0) {
                memory = config.requests().defaultMemory();
            } else {
                percentage = 100;
            }
        }

        int cores = ContainerResources.read(container, config.resources().resourceCoreName())
                .clampedInt()
                .orElse(config.requests().defaultCores());
        return new ContainerRequest((int) count.getAsLong(), NvidiaKeys.VENDOR, memory, percentage, cores);
    }
}
