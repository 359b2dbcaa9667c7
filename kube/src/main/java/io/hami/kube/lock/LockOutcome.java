package io.hami.kube.lock;

import io.hami.protocol.codec.NodeLock;

/** The result of trying to take a node lock. */
public sealed interface LockOutcome {

    /** The caller holds the lock now; {@code reentered} when it already held it. */
    record Acquired(String node, NodeLock lock, boolean reentered) implements LockOutcome {}

    /** Another live pod holds the lock; kube-scheduler should retry this pod later. */
    record Contended(String node, NodeLock holder) implements LockOutcome {
        public String message() {
            return "node " + node + " is locked by " + holder.namespace() + "/" + holder.name() + " since "
                    + holder.time() + ": node lock contention, retry later";
        }
    }

    /** The lock could not be read or written (API error, node missing). */
    record Failed(String node, String message) implements LockOutcome {}
}
