package io.hami.node.nvidia;

import io.hami.nativebind.nvml.Nvml;
import io.hami.nativebind.nvml.NvmlEvent;
import io.hami.nativebind.nvml.NvmlEventSet;
import io.hami.plugin.spi.HealthSource;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NVIDIA health (docs/upstream.md#plugin-health): critical XID events from an NVML event set make a GPU
 * unhealthy until the plugin restarts (NVML cannot tell when such a GPU is usable again; upstream does the
 * same), and a GPU that NVML cannot reach (lost, fallen off the bus) is unhealthy while that lasts, so it comes
 * back when NVML answers for it again. Which XIDs are critical is the {@link XidPolicy} (application XIDs 13,
 * 31, 43, 45, 68 and 109 ignored, {@code DP_DISABLE_HEALTHCHECKS} / {@code DP_ENABLE_HEALTHCHECKS}); when it
 * leaves none, no event set is made and only reachability is checked. Only the GPUs served are reported.
 */
final class NvidiaHealth implements HealthSource {
    private static final Logger LOG = LoggerFactory.getLogger(NvidiaHealth.class);

    private final Nvml nvml;
    private final List<Integer> gpus;
    private final XidPolicy xids;
    private final Set<Integer> xidUnhealthy = new HashSet<>();
    private NvmlEventSet events;

    /** {@code gpus}: the NVML indexes of the GPUs served (those not hidden). */
    NvidiaHealth(Nvml nvml, List<Integer> gpus, XidPolicy xids) {
        this.nvml = nvml;
        this.gpus = List.copyOf(gpus);
        this.xids = xids;
    }

    @Override
    public Set<Integer> unhealthy(Duration wait) {
        if (xids.watchesNothing()) {
            sleep(wait);
        } else {
            awaitEvent(wait);
        }
        Set<Integer> unhealthy = new HashSet<>(xidUnhealthy);
        for (int i : gpus) {
            try {
                nvml.memoryIfSupported(i); // NOT_SUPPORTED answers, so the GPU is there
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
                    .filter(e -> gpus.contains(e.deviceIndex()))
                    .filter(e -> xids.isCritical(e.eventData()))
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
