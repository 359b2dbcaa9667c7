package io.hami.scheduler.gang;

import java.time.Duration;
import java.util.Objects;

/**
 * How binds of gang members wait for a contended node lock: up to {@code maxWait} in {@code queue}'s line for the node
 * ({@link Duration#ZERO}: not at all, contention is answered at once as for any pod).
 */
public record GangWaits(Duration maxWait, NodeLockQueue queue) {
    public GangWaits {
        GangLockWait.check(maxWait);
        Objects.requireNonNull(queue, "queue");
    }

    /** No waiting: every pod's contention is answered at once. */
    public static GangWaits off() {
        return new GangWaits(Duration.ZERO, new NodeLockQueue());
    }

    public boolean on() {
        return !maxWait.isZero();
    }
}
