package io.hami.kube.lock;

import io.hami.protocol.codec.NodeLock;
import java.time.Duration;
import java.time.Instant;

/**
 * DECISIONS D5 as a pure decision: given the lock on a node, who asks, what is known about the holder and
 * the time, what may the caller do. Recovery never hands a live allocation to another pod: a holder still
 * {@code allocating} past the timeout is first marked {@code failed}, so its late Allocate fails.
 */
public final class LockRules {
    private LockRules() {
    }

    /** What the caller must do next. */
    public sealed interface Decision {
        /** Write the caller's lock (the node has none, or the current one may be replaced). */
        record Take(String why) implements Decision {
        }

        /** The caller already holds it. */
        record Reenter() implements Decision {
        }

        /** Mark the holder pod {@code bind-phase=failed}, then take the lock. */
        record FailHolderThenTake() implements Decision {
        }

        /** Someone else holds it legitimately. */
        record Wait() implements Decision {
        }
    }

    /**
     * @param current the lock on the node, or null when there is none
     * @param holder  what the API server says about {@code current}'s pod (ignored for legacy locks)
     */
    public static Decision decide(NodeLock current, String namespace, String pod, HolderState holder,
                                  Instant now, Duration timeout) {
        if (current == null) {
            return new Decision.Take("unlocked");
        }
        if (current.isHeldBy(namespace, pod)) {
            return new Decision.Reenter();
        }
        boolean expired = Duration.between(current.time().toInstant(), now).compareTo(timeout) > 0;
        if (current.isLegacy()) {
            return expired ? new Decision.Take("legacy lock expired") : new Decision.Wait();
        }
        return switch (holder) {
            case GONE -> new Decision.Take("holder pod is gone");
            case FINISHED -> new Decision.Take("holder pod finished its bind without releasing the lock");
            case ALLOCATING -> expired ? new Decision.FailHolderThenTake() : new Decision.Wait();
            // Taking it earlier could run two binds on one node: the holder may not have written its decision yet.
            case PENDING -> expired ? new Decision.Take("lock expired and its holder shows no allocation") : new Decision.Wait();
        };
    }
}
