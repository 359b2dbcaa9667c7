package io.hami.lab.kubescheduler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.hami.lab.kubescheduler.SimulatedScheduler.State;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * When the simulated kube-scheduler has nothing left to do without new input: the rule behind
 * {@link SimulatedScheduler#busy()}, which ends a run.
 *
 * <p>kube-scheduler moves a pod the extender rejected back to its queue on every cluster event, the node-lock and
 * handshake annotation writes included (the scheduler writes one every handshake period), so a pod that fits nowhere
 * is queued again and again for the whole run. Counting queued pods would never see a quiet moment. What matters is
 * whether a pod can still change state: it can while its attempt runs, while it has never been tried, while a failed
 * bind or filter is due for a retry, and while it has not been tried since the last change that may give it room (a
 * device release, a pod ended or deleted, a node added or its devices, health, labels or taints changed, an update
 * of the pod itself such as the scheduler's nudge after a release). A pod queued again only by writes that free
 * nothing has had its answer.
 *
 * <p>Changes are numbered in the order the simulated kube-scheduler saw them; a pod's attempt records the number
 * current when it began, so an attempt counts only for the changes seen before it.
 */
final class Settling {
    private Settling() {}

    /** Before any attempt. */
    static final long NEVER_TRIED = -1;

    /**
     * One pod as the rule sees it.
     *
     * @param state    where it is in the queue
     * @param retryDue its last attempt failed in a way retried whatever happens (a bind refused, a filter call that
     *                 failed), not as unschedulable
     * @param triedAt  the change number current when its last attempt began, or {@link #NEVER_TRIED}
     * @param roomAt   the number of the last change that may give it room (the cluster's or its own)
     */
    record PodProgress(State state, boolean retryDue, long triedAt, long roomAt) {}

    /** Whether the pod may still change state without new input. */
    static boolean moving(PodProgress p) {
        return switch (p.state()) {
            case BOUND -> false;
            case IN_FLIGHT -> true;
            case QUEUED -> p.retryDue() || p.roomAt() > p.triedAt();
            case UNSCHEDULABLE -> p.roomAt() > p.triedAt();
        };
    }

    /**
     * Whether a node update may give a pod room: anything kube-scheduler looks at ({@link
     * SimulatedScheduler#schedulingPropertiesChanged}) changed, other than the annotations in {@code freeNothing}
     * (the node lock, the handshake stamps), whose writes change no capacity the extender counts.
     */
    static boolean nodeMayGiveRoom(Node before, Node after, Set<String> freeNothing) {
        return SimulatedScheduler.propertiesBesideAnnotationsChanged(before, after)
                || !without(before.getMetadata().getAnnotations(), freeNothing)
                        .equals(without(after.getMetadata().getAnnotations(), freeNothing));
    }

    /**
     * Whether an update of a pod bound to a node may free room there: it ended, its annotations changed (a decision
     * marked failed, an allocation rewritten), or its init containers' statuses did (their devices are given back once
     * they are done). A status write of a running pod frees nothing.
     */
    static boolean assignedPodMayGiveRoom(Pod before, Pod after) {
        return SimulatedScheduler.terminal(after)
                || !Objects.equals(
                        before.getMetadata().getAnnotations(),
                        after.getMetadata().getAnnotations())
                || !Objects.equals(initStatuses(before), initStatuses(after));
    }

    /**
     * Whether an update of a pending pod may change its own answer: its annotations (such as the scheduler's
     * {@code hami.io/requeue-after-release} nudge, or a failed decision marked), labels or spec changed. Its status
     * (the condition the scheduler writes after an attempt) does not.
     */
    static boolean pendingPodMayGiveRoom(Pod before, Pod after) {
        return !Objects.equals(
                        before.getMetadata().getAnnotations(),
                        after.getMetadata().getAnnotations())
                || !Objects.equals(
                        before.getMetadata().getLabels(), after.getMetadata().getLabels())
                || !Objects.equals(before.getSpec(), after.getSpec());
    }

    private static Object initStatuses(Pod pod) {
        return pod.getStatus() == null ? null : pod.getStatus().getInitContainerStatuses();
    }

    private static Map<String, String> without(Map<String, String> annotations, Set<String> keys) {
        var out = new HashMap<String, String>(annotations == null ? Map.of() : annotations);
        out.keySet().removeAll(keys);
        return out;
    }
}
