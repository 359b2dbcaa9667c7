package io.hami.node.hygon;

import io.hami.nativebind.rocm.RocmEvent;
import io.hami.nativebind.rocm.RocmEventWatch;
import io.hami.nativebind.rocm.RocmSmi;
import io.hami.plugin.spi.HealthSource;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HCU health from ROCm SMI: a {@code GPU_PRE_RESET} event makes a card unhealthy until its
 * {@code GPU_POST_RESET}, and a card the library cannot reach is unhealthy while that lasts.
 */
final class HygonHealth implements HealthSource {
    private static final Logger LOG = LoggerFactory.getLogger(HygonHealth.class);

    private final RocmSmi rocm;
    private final int cards;
    private final Set<Integer> resetting = new HashSet<>();
    private RocmEventWatch watch;

    HygonHealth(RocmSmi rocm, int cards) {
        this.rocm = rocm;
        this.cards = cards;
    }

    @Override
    public Set<Integer> unhealthy(Duration wait) {
        awaitEvents(wait);
        Set<Integer> unhealthy = new HashSet<>(resetting);
        for (int i = 0; i < cards; i++) {
            try {
                rocm.device(i);
            } catch (RuntimeException e) {
                unhealthy.add(i);
            }
        }
        return unhealthy;
    }

    private void awaitEvents(Duration wait) {
        try {
            if (watch == null) {
                watch = rocm.watch(RocmSmi.EVENT_GPU_PRE_RESET, RocmSmi.EVENT_GPU_POST_RESET);
            }
            for (RocmEvent e : watch.await(wait)) {
                if (e.type() == RocmSmi.EVENT_GPU_PRE_RESET) {
                    LOG.warn("HCU {} is being reset ({}): unhealthy", e.deviceIndex(), e.message());
                    resetting.add(e.deviceIndex());
                } else if (e.type() == RocmSmi.EVENT_GPU_POST_RESET) {
                    LOG.info("HCU {} was reset: healthy again", e.deviceIndex());
                    resetting.remove(e.deviceIndex());
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("ROCm SMI events unavailable, probing every HCU: {}", e.getMessage());
            closeWatch();
            try {
                Thread.sleep(wait);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void closeWatch() {
        if (watch != null) {
            try {
                watch.close();
            } catch (RuntimeException e) {
                LOG.debug("stopping ROCm SMI events: {}", e.getMessage());
            }
            watch = null;
        }
    }

    @Override
    public void close() {
        closeWatch();
    }
}
