package io.hami.scheduler.bind;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.kube.lock.LockOutcome;
import java.time.Duration;

/** What bind reports to events and metrics. */
public interface BindObserver {
    /** The pod was bound to {@code node}; {@code took} is the wall time of the bind call. */
    default void bound(Pod pod, String node, Duration took) {}

    /** Binding failed; {@code pod} is null when it could not be read. */
    default void bindFailed(Pod pod, String node, String message, Duration took) {}

    /** The outcome of taking the node lock, and how long asking for it took. */
    default void lock(String node, LockOutcome outcome, Duration took) {}

    /**
     * A gang member's bind found the node lock held and waited in line for it ({@code --gang-lock-wait}) for
     * {@code waited}, ending with {@code outcome} (contention: its bound passed and it is refused as any pod).
     */
    default void gangWaited(String node, LockOutcome outcome, Duration waited) {}

    /** Tells nothing. */
    BindObserver NONE = new BindObserver() {};
}
