package io.hami.lab.observe;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.annotation.ProtocolKeys;
import java.util.Map;

/** Where a pod is in its life, as the report counts it. */
public enum PodState {
    /** Waiting for the scheduler, or being retried. */
    PENDING,
    /** No node can take it now; it waits for the cluster to change. */
    UNSCHEDULABLE,
    /** Being bound, or bound and waiting for its kubelet to allocate and start it. */
    ALLOCATING,
    RUNNING,
    SUCCEEDED,
    FAILED;

    public static PodState of(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Running".equals(phase)) {
            return RUNNING;
        }
        if ("Succeeded".equals(phase)) {
            return SUCCEEDED;
        }
        if ("Failed".equals(phase)) {
            return FAILED;
        }
        String node = pod.getSpec().getNodeName();
        Map<String, String> a = pod.getMetadata().getAnnotations();
        if ((node != null && !node.isEmpty())
                || (a != null && ProtocolKeys.PHASE_ALLOCATING.equals(a.get(ProtocolKeys.BIND_PHASE)))) {
            return ALLOCATING;
        }
        boolean unschedulable = pod.getStatus() != null
                && pod.getStatus().getConditions().stream()
                        .anyMatch(c -> "PodScheduled".equals(c.getType()) && "Unschedulable".equals(c.getReason()));
        return unschedulable ? UNSCHEDULABLE : PENDING;
    }

    public String label() {
        return name().charAt(0) + name().substring(1).toLowerCase(java.util.Locale.ROOT);
    }
}
