package io.hami.lab.kubescheduler;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Which cluster changes may give an unschedulable pod room, so the simulated kube-scheduler tries it again: a node
 * added, or its allocatable, labels, taints, unschedulable flag, conditions or annotations changed (but for the node
 * lock and handshake stamps, which change no capacity); a bound pod that ended or whose decision or init containers
 * changed; an update of the pending pod itself other than its status. kube-scheduler also retries on writes that free
 * nothing (it cannot tell); leaving those out changes no answer and lets a run see a quiet moment.
 */
final class RoomChanges {
    private RoomChanges() {}

    static boolean node(Node before, Node after, Set<String> freeNothing) {
        return !Objects.equals(allocatable(before), allocatable(after))
                || !Objects.equals(conditions(before), conditions(after))
                || !Objects.equals(
                        before.getMetadata().getLabels(), after.getMetadata().getLabels())
                || !Objects.equals(spec(before), spec(after))
                || !without(before.getMetadata().getAnnotations(), freeNothing)
                        .equals(without(after.getMetadata().getAnnotations(), freeNothing));
    }

    static boolean assignedPod(Pod before, Pod after) {
        return SimulatedScheduler.terminal(after)
                || !Objects.equals(
                        before.getMetadata().getAnnotations(),
                        after.getMetadata().getAnnotations())
                || !Objects.equals(initStatuses(before), initStatuses(after));
    }

    static boolean pendingPod(Pod before, Pod after) {
        return !Objects.equals(
                        before.getMetadata().getAnnotations(),
                        after.getMetadata().getAnnotations())
                || !Objects.equals(
                        before.getMetadata().getLabels(), after.getMetadata().getLabels())
                || !Objects.equals(before.getSpec(), after.getSpec());
    }

    private static Object allocatable(Node n) {
        return n.getStatus() == null ? null : n.getStatus().getAllocatable();
    }

    /** Condition statuses by type (their times change on every heartbeat). */
    private static Map<String, String> conditions(Node n) {
        var statuses = new HashMap<String, String>();
        if (n.getStatus() != null) {
            n.getStatus().getConditions().forEach(c -> statuses.put(c.getType(), c.getStatus()));
        }
        return statuses;
    }

    /** The unschedulable flag and the taints. */
    private static List<Object> spec(Node n) {
        return n.getSpec() == null
                ? List.of()
                : Arrays.asList(n.getSpec().getUnschedulable(), n.getSpec().getTaints());
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
