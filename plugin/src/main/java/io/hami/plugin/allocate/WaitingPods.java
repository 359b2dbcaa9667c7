package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Which pods on a node may still receive an Allocate of one vendor: bound to the node by the scheduler
 * ({@code hami.io/vgpu-node}), still Pending and not being deleted, in {@code bind-phase} allocating or
 * failed, with an entry of the vendor left (or a value that does not decode, which Allocate must not ignore).
 * A pod marked failed still counts: the kubelet may yet admit it, and its Allocate must not be mistaken for
 * another pod's (upstream #3096).
 *
 * <p>Pods <em>without a decision</em> are the other side of the same question: still Pending, they ask for the
 * kubelet resource an Allocate is for, but the scheduler chose nothing for them on this node. The kubelet will
 * call Allocate for them too, and nothing in that call tells it from the lock holder's.
 */
public final class WaitingPods {
    private WaitingPods() {}

    public static List<Pod> of(List<Pod> podsOnNode, String node, String toAllocateKey) {
        return podsOnNode.stream()
                .filter(p -> isWaiting(p, node, toAllocateKey))
                .toList();
    }

    /**
     * The pods on the node that request {@code resource} (a container's limits or requests, init containers
     * included) and may still receive an Allocate, but have no decision of the scheduler for this node: not
     * {@code hami.io/vgpu-node} = this node with entries of the vendor left, and not finished by it
     * ({@code bind-phase=success}).
     */
    public static List<Pod> withoutDecision(List<Pod> podsOnNode, String node, String resource, String toAllocateKey) {
        return podsOnNode.stream()
                .filter(p -> mayStillAllocate(p)
                        && requests(p, resource)
                        && !isWaiting(p, node, toAllocateKey)
                        && !isDone(p, node))
                .toList();
    }

    static boolean isWaiting(Pod pod, String node, String toAllocateKey) {
        if (!mayStillAllocate(pod)) {
            return false;
        }
        Map<String, String> a = annotations(pod);
        String bindPhase = a.get(ProtocolKeys.BIND_PHASE);
        if (!node.equals(a.get(ProtocolKeys.VGPU_NODE))
                || !(ProtocolKeys.PHASE_ALLOCATING.equals(bindPhase) || ProtocolKeys.PHASE_FAILED.equals(bindPhase))) {
            return false;
        }
        return hasEntriesLeft(a.get(toAllocateKey));
    }

    /** Pending (or no phase yet) and not being deleted: the kubelet may still admit it. */
    private static boolean mayStillAllocate(Pod pod) {
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return phase == null || phase.isEmpty() || phase.equals("Pending");
    }

    /** An undecodable value counts as having entries: Allocate must not ignore it. */
    private static boolean hasEntriesLeft(String toAllocate) {
        if (toAllocate == null) {
            return false;
        }
        try {
            return !PodDevicesCodec.decode(toAllocate).isEmpty();
        } catch (AnnotationFormatException e) {
            return true;
        }
    }

    /** Allocated on this node and finished: Pending only until its containers start. */
    private static boolean isDone(Pod pod, String node) {
        Map<String, String> a = annotations(pod);
        return node.equals(a.get(ProtocolKeys.VGPU_NODE))
                && ProtocolKeys.PHASE_SUCCESS.equals(a.get(ProtocolKeys.BIND_PHASE));
    }

    /** Whether a container (init containers included) asks for a non-zero amount of {@code resource}. */
    static boolean requests(Pod pod, String resource) {
        if (pod.getSpec() == null) {
            return false;
        }
        return Stream.concat(pod.getSpec().getInitContainers().stream(), pod.getSpec().getContainers().stream())
                .map(Container::getResources)
                .filter(r -> r != null)
                .flatMap(r -> Stream.of(r.getLimits(), r.getRequests()))
                .filter(m -> m != null)
                .map(m -> m.get(resource))
                .anyMatch(WaitingPods::nonZero);
    }

    /** A quantity that cannot be read counts as a request: it must not let a pod go unnoticed. */
    private static boolean nonZero(Quantity q) {
        if (q == null) {
            return false;
        }
        try {
            return q.getNumericalAmount().signum() != 0;
        } catch (RuntimeException e) {
            return true;
        }
    }

    static boolean isAllocating(Pod pod) {
        return ProtocolKeys.PHASE_ALLOCATING.equals(annotations(pod).get(ProtocolKeys.BIND_PHASE));
    }

    static Map<String, String> annotations(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        return a == null ? Map.of() : a;
    }

    static String name(Pod pod) {
        return pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName();
    }
}
