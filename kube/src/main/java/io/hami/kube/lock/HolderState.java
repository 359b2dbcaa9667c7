package io.hami.kube.lock;

/** What the API server says about the pod named in a node lock ({@link LockRules#holderState}). */
public enum HolderState {
    /** The pod does not exist. */
    GONE,
    /** The pod is bound to the locked node and its decision under this lock is not yet allocated: a live allocation. */
    ALLOCATING,
    /**
     * The pod's decision under this lock is written but the pod is not bound: its bind is between writing the decision
     * and posting the binding, or died there. It keeps the lock for the bind window only, and is failed first.
     */
    ALLOCATING_UNBOUND,
    /** The pod's bind under this lock has finished ({@code success} or {@code failed}); only the release was lost. */
    FINISHED,
    /**
     * The pod exists but shows no outcome of a bind under this lock: either its bind is between taking the lock and
     * writing its decision, or it is unrelated to the lock. It keeps the lock for the bind window only.
     */
    PENDING,
    /**
     * The pod finished ({@code Succeeded}/{@code Failed}), is being deleted or is bound to another node, and has no
     * live decision under this lock: it will never be allocated on this node.
     */
    ENDED,
    /** As {@link #ENDED}, but its decision under this lock is still {@code allocating}: it must be failed first. */
    ENDED_ALLOCATING
}
