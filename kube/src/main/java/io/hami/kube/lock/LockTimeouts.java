package io.hami.kube.lock;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a node lock holds against other pods (design D5, docs/design.md#d5).
 *
 * @param allocation how long a holder whose decision is {@code allocating} keeps the lock: the kubelet may take a
 *                   while to call Allocate (default 5 min, {@code --node-lock-timeout}); also the age after which a
 *                   legacy lock (no holder named) is replaced
 * @param bindWindow how long a holder that shows no decision under the lock keeps it: a bind writes its decision
 *                   within one extender bind call (kube-scheduler's {@code httpTimeout}, 30 s as deployed), so past
 *                   this the bind that took the lock has died
 */
public record LockTimeouts(Duration allocation, Duration bindWindow) {
    /** Twice kube-scheduler's {@code httpTimeout} as deployed: the bind call, plus as much again for margin. */
    public static final Duration DEFAULT_BIND_WINDOW = Duration.ofSeconds(60);

    public LockTimeouts {
        Objects.requireNonNull(allocation, "allocation");
        Objects.requireNonNull(bindWindow, "bindWindow");
        if (allocation.isNegative() || allocation.isZero() || bindWindow.isNegative() || bindWindow.isZero()) {
            throw new IllegalArgumentException("node lock timeouts must be longer than 0, got allocation " + allocation
                    + " and bind window " + bindWindow);
        }
    }

    /** {@code allocation} with the default bind window, never longer than {@code allocation} itself. */
    public static LockTimeouts of(Duration allocation) {
        return new LockTimeouts(
                allocation, DEFAULT_BIND_WINDOW.compareTo(allocation) < 0 ? DEFAULT_BIND_WINDOW : allocation);
    }
}
