package io.hami.kube.lock;

import io.hami.protocol.codec.NodeLock;

/** The result of trying to take a node lock. */
public sealed interface LockOutcome {

    /**
     * The caller holds the lock now; {@code reentered} when it already held it. {@code freeAt} is the resourceVersion of
     * the node the lock was written over when that node carried no lock (null after a takeover or a reentry): the
     * caller may prove from it that it has seen every earlier holder's decision.
     */
    record Acquired(String node, NodeLock lock, boolean reentered, String freeAt) implements LockOutcome {
        public Acquired(String node, NodeLock lock, boolean reentered) {
            this(node, lock, reentered, null);
        }
    }

    /** Another live pod holds the lock; kube-scheduler should retry this pod later. */
    record Contended(String node, NodeLock holder) implements LockOutcome {
        public String message() {
            return "node " + node + " is locked by " + holder.namespace() + "/" + holder.name() + " since "
                    + holder.time() + ": node lock contention, retry later";
        }
    }

    /** The lock could not be read or written (API error, node missing). */
    record Failed(String node, String message) implements LockOutcome {
    }
}
