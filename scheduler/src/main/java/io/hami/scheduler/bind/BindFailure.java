package io.hami.scheduler.bind;

/** A bind step that failed; the message goes back to kube-scheduler. */
final class BindFailure extends Exception {
    BindFailure(String message) {
        super(message);
    }
}
