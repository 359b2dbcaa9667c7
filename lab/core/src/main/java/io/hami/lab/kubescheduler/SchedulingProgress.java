package io.hami.lab.kubescheduler;

import java.util.Map;

/** What the run needs to know of the kube-scheduler: whether it still has work, and what its binds did. */
public interface SchedulingProgress {
    /**
     * Pods the kube-scheduler may still move without new input: in an attempt, never tried, due for a retry, or not
     * yet looked at again since a change that may let them fit.
     */
    int busy();

    /** Pods bound so far. */
    int bound();

    /** {@link System#nanoTime()} of the last successful bind, or 0. */
    long lastBindNanos();

    /** Binds refused because another pod held the node lock (each was retried). */
    int contentions();

    /** Binds the extender refused or could not finish for another reason (each was retried). */
    int bindFailures();

    /** Those binds (and failed filters, where the kube-scheduler sees them) by cause, most frequent first. */
    Map<String, Integer> failureCauses();
}
