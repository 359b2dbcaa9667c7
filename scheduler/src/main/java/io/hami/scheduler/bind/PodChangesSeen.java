package io.hami.scheduler.bind;

import java.time.Duration;

/**
 * Whether the usage index has taken in every pod change up to a resourceVersion, waiting up to {@code max} for it
 * (the pod watch's horizon). False when that cannot be known: the bind then lists its node's decided pods instead.
 */
@FunctionalInterface
public interface PodChangesSeen {
    boolean reached(String resourceVersion, Duration max);
}
