package io.hami.kube.lock;

/** What the API server says about the pod named in a node lock. */
public enum HolderState {
    /** The pod does not exist. */
    GONE,
    /** The pod is bound to the locked node with {@code bind-phase=allocating}: a live allocation. */
    ALLOCATING,
    /** The pod exists but no allocation of it is in flight on this node (finished, failed, or elsewhere). */
    IDLE
}
