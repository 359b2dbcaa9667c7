package io.hami.plugin.config;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * How a plugin whose vendor library cannot be used (missing, damaged, failing its init) waits for it instead of
 * exiting (issue 26): it tries again after {@code first}, doubling each time up to {@code max}, and repeats its
 * Warning event on the Node at most every {@code eventRepeat} while the cause stays the same.
 *
 * @param first       the wait after the first failed attempt
 * @param max         the longest wait between two attempts
 * @param eventRepeat how long the same Warning event is not written again; under the API server's default event
 *                    TTL of one hour, so that {@code kubectl describe node} keeps showing it while the cause lasts
 */
public record LibraryRetry(Duration first, Duration max, Duration eventRepeat) {
    public static final LibraryRetry DEFAULTS =
            new LibraryRetry(Duration.ofSeconds(10), Duration.ofMinutes(5), Duration.ofMinutes(30));

    public LibraryRetry {
        Objects.requireNonNull(first, "first");
        Objects.requireNonNull(max, "max");
        Objects.requireNonNull(eventRepeat, "eventRepeat");
        if (first.isNegative() || first.isZero()) {
            throw new IllegalArgumentException("the first library retry wait must be positive: " + first);
        }
        if (max.compareTo(first) < 0) {
            throw new IllegalArgumentException(
                    "the longest library retry wait " + max + " is under the first " + first);
        }
    }

    /** The wait after {@code failures} failed attempts (1 or more): {@code first × 2^(failures-1)}, at most {@code max}. */
    public Duration delayAfter(int failures) {
        if (failures < 1) {
            throw new IllegalArgumentException("failures must be at least 1: " + failures);
        }
        Duration delay = first;
        for (int i = 1; i < failures && delay.compareTo(max) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        return delay.compareTo(max) < 0 ? delay : max;
    }

    /**
     * Whether a Warning event with {@code message} is due at {@code now}, the last one written (null: none yet) having
     * said {@code lastMessage} at {@code lastAt}: a new cause is always reported, the same one again only after
     * {@code eventRepeat}, so a retry every few minutes does not write one event each.
     */
    public boolean eventDue(String lastMessage, Instant lastAt, String message, Instant now) {
        return lastMessage == null || !lastMessage.equals(message) || !now.isBefore(lastAt.plus(eventRepeat));
    }
}
