package io.hami.scheduler.gang;

import java.time.Duration;

/**
 * The bound on a gang member's wait for a contended node lock inside {@code /bind} ({@code --gang-lock-wait}). The
 * bind must still answer within kube-scheduler's extender {@code httpTimeout} (30 s in deploy/), after the wait and
 * the bind's own API calls, so the wait stays below 25 s.
 */
public final class GangLockWait {
    /** The default: long enough for a few allocations ahead in line, far inside the 30 s httpTimeout. */
    public static final Duration DEFAULT = Duration.ofSeconds(10);
    /** Waits this long or longer are refused. */
    public static final Duration LIMIT = Duration.ofSeconds(25);

    private GangLockWait() {}

    /**
     * {@code wait} when it is allowed (0 turns waiting off).
     *
     * @throws IllegalArgumentException with the reason, for a negative wait or one of 25 s or more
     */
    public static Duration check(Duration wait) {
        if (wait == null || wait.isNegative()) {
            throw new IllegalArgumentException("--gang-lock-wait must not be negative (0 turns waiting off), got "
                    + (wait == null ? "nothing" : seconds(wait)));
        }
        if (wait.compareTo(LIMIT) >= 0) {
            throw new IllegalArgumentException("--gang-lock-wait must be below " + LIMIT.toSeconds() + "s, got "
                    + seconds(wait) + ": a bind must answer within kube-scheduler's extender httpTimeout (30s in"
                    + " deploy/), after the wait and its own API calls");
        }
        return wait;
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
    }
}
