package io.hami.plugin.vendor;

import io.hami.plugin.spi.HealthSource;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Health of a library that is asked rather than told (CNDev, MTML): each call waits, then asks about every
 * card. A card whose question fails counts as unhealthy; both directions are reported, so cards recover.
 */
public final class PollingHealth implements HealthSource {
    private final int cards;
    private final IntPredicate healthy;

    public PollingHealth(int cards, IntPredicate healthy) {
        this.cards = cards;
        this.healthy = healthy;
    }

    @Override
    public Set<Integer> unhealthy(Duration wait) {
        try {
            Thread.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Set<Integer> unhealthy = new HashSet<>();
        for (int i = 0; i < cards; i++) {
            boolean ok;
            try {
                ok = healthy.test(i);
            } catch (RuntimeException e) {
                ok = false;
            }
            if (!ok) {
                unhealthy.add(i);
            }
        }
        return unhealthy;
    }

    @Override
    public void close() {
        // The library belongs to the plugin, which closes it.
    }
}
