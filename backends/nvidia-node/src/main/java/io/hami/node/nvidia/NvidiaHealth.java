package io.hami.node.nvidia;

import io.hami.nativebind.nvml.Nvml;
import io.hami.nativebind.nvml.NvmlEvent;
import io.hami.nativebind.nvml.NvmlEventSet;
import io.hami.plugin.spi.HealthSource;
import java.time.Duration;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NVIDIA health (docs/upstream.md#plugin-health): critical XID events from an NVML event set make a GPU
 * unhealthy until the plugin restarts (NVML cannot tell when such a GPU is usable again; upstream does the
 * same), and a GPU that NVML cannot reach (lost, fallen off the bus) is unhealthy while that lasts, so it comes
 * back when NVML answers for it again. Application XIDs 13, 31, 43, 45, 68 and 109 are ignored, as upstream.
 */
final class NvidiaHealth implements HealthSource {
    private static final Logger LOG = LoggerFactory.getLogger(NvidiaHealth.class);
    static final Set<Long> APPLICATION_XIDS = Set.of(13L, 31L, 43L, 45L, 68L, 109L);

    private final Nvml nvml;
    private final int gpus;
    private final Set<Integer> xidUnhealthy = new HashSet<>();
    private NvmlEventSet events;

    NvidiaHealth(Nvml nvml, int gpus) {
        this.nvml = nvml;
        this.gpus = gpus;
    }

    @Override
    public Set<Integer> unhealthy(Duration wait) {
        awaitEvent(wait);
        Set<Integer> unhealthy = new HashSet<>(xidUnhealthy);
        for (int i = 0; i < gpus; i++) {
            try {
                nvml.memory(i);
            } catch (RuntimeException e) {
                unhealthy.add(i);
            }
        }
        return unhealthy;
    }

    private void awaitEvent(Duration wait) {
        if (events == null) {
            try {
                events = nvml.watch(
                        Nvml.EVENT_XID_CRITICAL_ERROR | Nvml.EVENT_DOUBLE_BIT_ECC | Nvml.EVENT_SINGLE_BIT_ECC);
            } catch (RuntimeException e) {
                // Usually a lost GPU: probe only, and try again next time.
                LOG.debug("no NVML event set: {}", e.getMessage());
                sleep(wait);
                return;
            }
        }
        try {
            Optional<NvmlEvent> event = events.await(wait);
            event.filter(NvmlEvent::isXid)
                    .filter(e -> !APPLICATION_XIDS.contains(e.eventData()))
                    .ifPresent(e -> {
                        LOG.warn(
                                "GPU {} ({}) reported critical XID {}: unhealthy",
                                e.deviceIndex(),
                                e.uuid(),
                                e.eventData());
                        xidUnhealthy.add(e.deviceIndex());
                    });
        } catch (RuntimeException e) {
            // GPU_IS_LOST answers at once while the GPU is gone: rebuild the set after a pause instead of spinning.
            LOG.warn("NVML event wait failed, probing every GPU: {}", e.getMessage());
            closeEvents();
            sleep(wait);
        }
    }

    private static void sleep(Duration wait) {
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void closeEvents() {
        if (events != null) {
            try {
                events.close();
            } catch (RuntimeException e) {
                LOG.debug("freeing the NVML event set: {}", e.getMessage());
            }
            events = null;
        }
    }

    @Override
    public void close() {
        closeEvents();
    }
}
