package io.hami.plugin.spi;

import java.time.Duration;
import java.util.Set;

/**
 * Where a vendor's device health comes from. One thread calls {@link #unhealthy} in a loop, so an
 * implementation may keep state between calls (event sets, sticky XIDs) without locking.
 */
public interface HealthSource extends AutoCloseable {

    /**
     * Waits up to {@code wait} for news (an event, or simply the next poll) and returns the indexes of every
     * device that is unhealthy now. Devices that recovered are simply absent.
     */
    Set<Integer> unhealthy(Duration wait);

    @Override
    void close();
}
