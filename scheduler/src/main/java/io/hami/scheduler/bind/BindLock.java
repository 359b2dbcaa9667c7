package io.hami.scheduler.bind;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.kube.client.ApiErrors;
import io.hami.kube.lock.LockOutcome;
import io.hami.kube.lock.NodeLockClient;
import io.hami.protocol.codec.NodeLock;
import io.hami.scheduler.gang.GangMembership;
import io.hami.scheduler.gang.GangWaits;
import io.hami.scheduler.gang.NodeLockQueue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node lock as one bind holds it: taken (a gang member that finds it held waits in line), the decision written
 * within half its bind window, still ours once the decision is written (the fence), released when the bind fails.
 */
final class BindLock {
    private static final Logger LOG = LoggerFactory.getLogger(BindLock.class);
    /** A virtual thread per fence read: it only waits on the API server. */
    private static final Executor FENCE_READS =
            task -> Thread.ofVirtual().name("hami-bind-fence").start(task);

    private final NodeLockClient locks;
    private final GangWaits gangs;
    private final Clock clock;
    private final BindObserver observer;

    BindLock(NodeLockClient locks, GangWaits gangs, Clock clock, BindObserver observer) {
        this.locks = locks;
        this.gangs = gangs;
        this.clock = clock;
        this.observer = observer;
    }

    /** What asking for the lock ended with, and when. */
    record Taken(LockOutcome outcome, Instant at) {}

    /**
     * Asks for the node lock once; a gang member that finds it held waits in the node's line (design D5's one exception
     * to answering contention at once, bounded by {@code --gang-lock-wait}, well inside kube-scheduler's httpTimeout):
     * members of one group placed on one node would otherwise all but one be refused and backed off for seconds to
     * minutes. A newcomer queues behind those already waiting rather than try first, so the line keeps arrival order.
     */
    Taken take(Pod pod, String node) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        boolean gang = gangs.on() && GangMembership.group(pod).isPresent();
        NodeLockQueue line = gangs.queue();
        if (!gang || !line.waiting(node)) {
            long lockStart = System.nanoTime();
            LockOutcome first = locks.acquire(node, ns, name);
            if (!gang || !(first instanceof LockOutcome.Contended)) {
                Instant at = clock.instant(); // before the observers: the decision deadline counts from here
                observer.lock(node, first, Binder.since(lockStart));
                return new Taken(first, at);
            }
        }
        // Only the outcome the bind answers with is reported to observer.lock: a try that a later one in the same
        // bind made good was no refusal.
        long waitStart = System.nanoTime();
        long deadline = waitStart + gangs.maxWait().toNanos();
        LockOutcome last = null;
        long lastTook = 0;
        NodeLockQueue.Ticket ticket = line.join(node);
        try {
            while (line.awaitTurn(ticket, deadline)) {
                long tryStart = System.nanoTime();
                last = locks.acquire(node, ns, name);
                lastTook = System.nanoTime() - tryStart;
                if (!(last instanceof LockOutcome.Contended)) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the server is stopping: answer what we have
        } finally {
            line.leave(ticket);
        }
        if (last == null) {
            // Its turn never came within the bound: one last look rather than invent an answer.
            long tryStart = System.nanoTime();
            last = locks.acquire(node, ns, name);
            lastTook = System.nanoTime() - tryStart;
        }
        Instant at = clock.instant();
        observer.lock(node, last, Duration.ofNanos(lastTook));
        observer.gangWaited(node, last, Binder.since(waitStart));
        return new Taken(last, at);
    }

    /**
     * The lock holds against other binds for the bind window only while no decision is written, so a bind that took
     * half of it before writing (a slow API server, a long wait for the quota) gives up rather than race the next taker.
     */
    void withinDecisionDeadline(String node, Instant locked) throws BindFailure {
        Duration deadline = locks.timeouts().bindWindow().dividedBy(2);
        Duration took = Duration.between(locked, clock.instant());
        if (took.compareTo(deadline) > 0) {
            throw new BindFailure("bind on node " + node + " had not written its decision " + took.toSeconds()
                    + " s after taking the node lock (limit " + deadline.toSeconds()
                    + " s, half the lock's bind window); retry");
        }
    }

    /**
     * After the decision is written, checks the lock is still ours. A bind slower than the lock timeout (a
     * pause, a replica cut off mid-bind) may have lost it to a bind that did not see this decision; it must
     * then not go on. Any bind that takes the lock after this check writes its decision after ours, so it checks
     * against ours. The lock is read now, on a thread of its own, so the bind's other wait (for the pod watch) overlaps
     * it; {@link Fence#held} waits for the answer.
     */
    Fence fence(String node, String ns, String name) {
        return new Fence(node, ns, name, CompletableFuture.supplyAsync(() -> locks.current(node), FENCE_READS));
    }

    /** The lock of {@code node} as read after the decision: ours, or the bind must not go on. */
    record Fence(String node, String ns, String name, CompletableFuture<NodeLock> read) {
        /**
         * @throws BindFailure when the lock is no longer ours
         * @throws KubernetesClientException when the lock could not be read
         */
        void held() throws BindFailure {
            NodeLock lock;
            try {
                lock = read.join();
            } catch (CompletionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                throw e;
            }
            if (lock == null || !lock.isHeldBy(ns, name)) {
                throw new BindFailure("lost the lock of node " + node + " while binding (it expired"
                        + (lock == null ? "" : " and is now held by " + lock.namespace() + "/" + lock.name())
                        + "); retry");
            }
        }
    }

    void release(String node, String ns, String name) {
        try {
            locks.release(node, ns, name);
        } catch (KubernetesClientException e) {
            // The holder is no longer allocating, so the next bind on this node recovers the lock.
            LOG.warn("node {}: releasing lock of {}/{} failed: {}", node, ns, name, ApiErrors.describe(e));
        }
    }
}
