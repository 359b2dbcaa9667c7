package io.hami.lab.kubescheduler;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;

/**
 * What the run needs to know of the kube-scheduler, simulated or real: whether it still has work, and what its binds
 * did (counted here by the subclass that sees them).
 */
public abstract class SchedulingProgress {
    private final AtomicInteger bound = new AtomicInteger();
    private final AtomicInteger contentions = new AtomicInteger();
    private final AtomicInteger bindFailures = new AtomicInteger();
    private final FailureCauses causes;
    private volatile long lastBindNanos;

    SchedulingProgress(Logger log) {
        this.causes = new FailureCauses(log);
    }

    /** Pods the kube-scheduler may still move without new input. */
    public abstract int busy();

    /** Pods bound so far. */
    public int bound() {
        return bound.get();
    }

    /** {@link System#nanoTime()} of the last successful bind, or 0. */
    public long lastBindNanos() {
        return lastBindNanos;
    }

    /** Binds refused because another pod held the node lock (each was retried). */
    public int contentions() {
        return contentions.get();
    }

    /** Binds the extender refused or could not finish for another reason (each was retried). */
    public int bindFailures() {
        return bindFailures.get();
    }

    /** Those binds (and failed filters, where the kube-scheduler sees them) by cause, most frequent first. */
    public Map<String, Integer> failureCauses() {
        return causes.counts();
    }

    void countBound(long atNanos) {
        bound.incrementAndGet();
        lastBindNanos = atNanos;
    }

    /** Counts a refused bind: for node-lock contention, or a failure by its cause. */
    void countRefused(Pod pod, String node, String error) {
        if (error != null && error.contains(SimulatedScheduler.LOCK_CONTENTION)) {
            contentions.incrementAndGet();
        } else {
            bindFailures.incrementAndGet();
            countFailure("bind", pod, node, error);
        }
    }

    void countFailure(String what, Pod pod, String node, String error) {
        causes.record(what, pod.getMetadata().getNamespace(), pod.getMetadata().getName(), node, error);
    }

    void logSummary() {
        causes.logSummary();
    }
}
