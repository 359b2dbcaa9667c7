package io.hami.kube.lock;

/** What the API server says about the pod named in a node lock. */
public enum HolderState {
    /** The pod does not exist. */
    GONE,
    /** The pod's decision for the locked node is written and not yet allocated: a live allocation. */
    ALLOCATING,
    /** The pod's bind under this lock has finished ({@code success} or {@code failed}); only the release was lost. */
    FINISHED,
    /**
     * The pod exists but shows no outcome of a bind under this lock: either its bind is between taking the
     * lock and writing its decision, or it is unrelated to the lock. Both wait for the timeout.
     */
    PENDING
}
