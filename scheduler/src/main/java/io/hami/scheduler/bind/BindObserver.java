package io.hami.scheduler.bind;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.kube.lock.LockOutcome;

/** What bind reports to events and metrics. */
public interface BindObserver {
    /** The pod was bound to {@code node}. */
    void bound(Pod pod, String node);

    /** Binding failed; {@code pod} is null when it could not be read. */
    void bindFailed(Pod pod, String node, String message);

    /** The outcome of taking the node lock. */
    void lock(String node, LockOutcome outcome);

    BindObserver NONE = new BindObserver() {
        @Override
        public void bound(Pod pod, String node) {
        }

        @Override
        public void bindFailed(Pod pod, String node, String message) {
        }

        @Override
        public void lock(String node, LockOutcome outcome) {
        }
    };
}
