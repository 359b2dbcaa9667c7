package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import java.util.List;
import java.util.Map;

/**
 * Which pods on a node may still receive an Allocate of one vendor: bound to the node by the scheduler
 * ({@code hami.io/vgpu-node}), still Pending and not being deleted, in {@code bind-phase} allocating or
 * failed, with an entry of the vendor left (or a value that does not decode, which Allocate must not ignore).
 * A pod marked failed still counts: the kubelet may yet admit it, and its Allocate must not be mistaken for
 * another pod's (upstream #3096).
 */
public final class WaitingPods {
    private WaitingPods() {
    }

    public static List<Pod> of(List<Pod> podsOnNode, String node, String toAllocateKey) {
        return podsOnNode.stream().filter(p -> isWaiting(p, node, toAllocateKey)).toList();
    }

    static boolean isWaiting(Pod pod, String node, String toAllocateKey) {
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if (phase != null && !phase.isEmpty() && !phase.equals("Pending")) {
            return false;
        }
        Map<String, String> a = annotations(pod);
        String bindPhase = a.get(ProtocolKeys.BIND_PHASE);
        if (!node.equals(a.get(ProtocolKeys.VGPU_NODE))
                || !(ProtocolKeys.PHASE_ALLOCATING.equals(bindPhase) || ProtocolKeys.PHASE_FAILED.equals(bindPhase))) {
            return false;
        }
        String value = a.get(toAllocateKey);
        if (value == null) {
            return false;
        }
        try {
            return !PodDevicesCodec.decode(value).isEmpty();
        } catch (AnnotationFormatException e) {
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
