package io.hami.kube.lock;

import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.UnixTimeCodec;
import java.time.Duration;
import java.time.Instant;

/**
 * Design D5 (docs/design.md#d5) as a pure decision: given the lock on a node, who asks, what is known about the
 * holder and the time, what may the caller do. Recovery never hands a live allocation to another pod: a holder
 * still {@code allocating} is first marked {@code failed}, so its late Allocate fails. No holder keeps a node
 * longer than it can use it: one that ended is replaced at once, one whose bind did not write its decision and bind
 * the pod after the bind window, a bound one still allocating after the allocation timeout.
 */
public final class LockRules {
    private LockRules() {}

    /** What the caller must do next. */
    public sealed interface Decision {
        /** Write the caller's lock (the node has none, or the current one may be replaced). */
        record Take(String why) implements Decision {}

        /** The caller already holds it. */
        record Reenter() implements Decision {}

        /** Mark the holder pod {@code bind-phase=failed}, then take the lock. */
        record FailHolderThenTake(String why) implements Decision {}

        /**
         * Take the lock from a holder that showed no decision under it, then read the holder again: a bind that
         * stalled past the bind window may have written its decision in between, and then gets its lock back.
         */
        record TakeFromIdleHolder(String why) implements Decision {}

        /** Someone else holds it legitimately. */
        record Wait() implements Decision {}
    }

    /**
     * @param current the lock on the node, or null when there is none
     * @param holder  what the API server says about {@code current}'s pod (ignored for legacy locks)
     */
    public static Decision decide(
            NodeLock current, String namespace, String pod, HolderState holder, Instant now, LockTimeouts timeouts) {
        if (current == null) {
            return new Decision.Take("unlocked");
        }
        if (current.isHeldBy(namespace, pod)) {
            return new Decision.Reenter();
        }
        Duration age = Duration.between(current.time().toInstant(), now);
        boolean allocationExpired = age.compareTo(timeouts.allocation()) > 0;
        if (current.isLegacy()) {
            return allocationExpired ? new Decision.Take("legacy lock expired") : new Decision.Wait();
        }
        return switch (holder) {
            case GONE -> new Decision.Take("holder pod is gone");
            case FINISHED -> new Decision.Take("holder pod finished its bind without releasing the lock");
            case ENDED ->
                new Decision.TakeFromIdleHolder("holder pod finished, is being deleted or is bound elsewhere");
            case ENDED_ALLOCATING ->
                new Decision.FailHolderThenTake(
                        "holder pod finished, is being deleted or is bound elsewhere while still allocating");
            case ALLOCATING ->
                allocationExpired
                        ? new Decision.FailHolderThenTake("lock expired while its holder was still allocating")
                        : new Decision.Wait();
            // The kubelet calls Allocate only for a bound pod: until the binding, only the bind call can go on.
            case ALLOCATING_UNBOUND ->
                age.compareTo(timeouts.bindWindow()) > 0
                        ? new Decision.FailHolderThenTake(
                                "holder wrote its decision but was not bound within the bind window of "
                                        + timeouts.bindWindow())
                        : new Decision.Wait();
            // Before the bind window has passed the holder may still write its decision: taking the lock could run
            // two binds on one node.
            case PENDING ->
                age.compareTo(timeouts.bindWindow()) > 0
                        ? new Decision.TakeFromIdleHolder(
                                "holder wrote no decision within the bind window of " + timeouts.bindWindow())
                        : new Decision.Wait();
        };
    }

    /**
     * Classifies the pod a lock on {@code node} names ({@code null}: it does not exist). A decision belongs to this
     * lock when it is for {@code node} and its bind-time is at or after the lock's time.
     */
    public static HolderState holderState(String node, NodeLock lock, HolderPod pod) {
        if (pod == null) {
            return HolderState.GONE;
        }
        HolderState bind = bindUnderLock(node, lock, pod);
        if (!pod.ended(node)) {
            return bind == HolderState.ALLOCATING && pod.boundNode() == null ? HolderState.ALLOCATING_UNBOUND : bind;
        }
        return switch (bind) {
            case ALLOCATING -> HolderState.ENDED_ALLOCATING;
            case FINISHED -> HolderState.FINISHED;
            default -> HolderState.ENDED;
        };
    }

    /** ALLOCATING, FINISHED or PENDING, from the pod's decision alone. */
    private static HolderState bindUnderLock(String node, NodeLock lock, HolderPod pod) {
        var a = pod.annotations();
        boolean underThisLock;
        try {
            String bindTime = a.get(ProtocolKeys.BIND_TIME);
            underThisLock = bindTime != null
                    && node.equals(a.get(ProtocolKeys.VGPU_NODE))
                    && !UnixTimeCodec.decode(bindTime).isBefore(lock.time().toInstant());
        } catch (AnnotationFormatException e) {
            underThisLock = false;
        }
        if (!underThisLock) {
            return HolderState.PENDING;
        }
        String phase = a.get(ProtocolKeys.BIND_PHASE);
        return ProtocolKeys.PHASE_ALLOCATING.equals(phase)
                ? HolderState.ALLOCATING
                : ProtocolKeys.PHASE_SUCCESS.equals(phase) || ProtocolKeys.PHASE_FAILED.equals(phase)
                        ? HolderState.FINISHED
                        : HolderState.PENDING;
    }
}
