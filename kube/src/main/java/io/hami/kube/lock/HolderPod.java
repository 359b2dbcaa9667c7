package io.hami.kube.lock;

import io.fabric8.kubernetes.api.model.Pod;
import java.util.Map;

/**
 * What {@link LockRules#holderState} needs to know of the pod a node lock names, as plain values.
 *
 * @param annotations the pod's annotations (never null)
 * @param phase       {@code status.phase}, or null
 * @param deleting    whether it has a {@code deletionTimestamp}
 * @param boundNode   {@code spec.nodeName}, or null when it is not bound
 */
public record HolderPod(Map<String, String> annotations, String phase, boolean deleting, String boundNode) {
    public HolderPod {
        annotations = annotations == null ? Map.of() : annotations;
        boundNode = boundNode == null || boundNode.isEmpty() ? null : boundNode;
    }

    /** The plain values of {@code pod}, or null for a pod that does not exist. */
    public static HolderPod of(Pod pod) {
        if (pod == null) {
            return null;
        }
        var m = pod.getMetadata();
        return new HolderPod(
                m.getAnnotations(),
                pod.getStatus() == null ? null : pod.getStatus().getPhase(),
                m.getDeletionTimestamp() != null,
                pod.getSpec() == null ? null : pod.getSpec().getNodeName());
    }

    /** Whether the pod will never be allocated on {@code node}: finished, being deleted, or bound to another node. */
    boolean ended(String node) {
        return "Succeeded".equals(phase)
                || "Failed".equals(phase)
                || deleting
                || boundNode != null && !boundNode.equals(node);
    }
}
