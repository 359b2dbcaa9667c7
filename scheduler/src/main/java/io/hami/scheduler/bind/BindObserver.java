package io.hami.scheduler.bind;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.kube.lock.LockOutcome;
import java.time.Duration;

/** What bind reports to events and metrics. */
public interface BindObserver {
    /** The pod was bound to {@code node}; {@code took} is the wall time of the bind call. */
    void bound(Pod pod, String node, Duration took);

    /** Binding failed; {@code pod} is null when it could not be read. */
    void bindFailed(Pod pod, String node, String message, Duration took);

    /** The outcome of taking the node lock, and how long asking for it took. */
    void lock(String node, LockOutcome outcome, Duration took);

    BindObserver NONE = new BindObserver() {
        @Override
        public void bound(Pod pod, String node, Duration took) {
        }

        @Override
        public void bindFailed(Pod pod, String node, String message, Duration took) {
        }

        @Override
        public void lock(String node, LockOutcome outcome, Duration took) {
        }
    };
}
