package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.NodeLock;
import java.util.List;
import java.util.stream.Collectors;

/**
 * DECISIONS D4/D5 for the plugin, as a pure decision: the kubelet's Allocate names no pod, so the pod is the
 * one the node lock names, verified (bound here, allocating, an entry of this vendor left) and fenced: when any
 * other pod on the node may still receive an Allocate of this vendor, the call cannot be attributed and is
 * not served, because serving it could hand one pod's devices and limits to another (upstream #3096). Without
 * a lock, the only pod waiting is served if it is allocating (never a guess among several, upstream #3076).
 */
public final class PodMatcher {
    private PodMatcher() {
    }

    /**
     * @param node      this node
     * @param vendor    the vendor keyword, for messages
     * @param lock      the node lock, or null when there is none
     * @param onNode    the pods bound to this node
     * @param toAllocateKey this vendor's to-allocate annotation
     */
    public static Match match(String node, String vendor, NodeLock lock, List<Pod> onNode, String toAllocateKey) {
        List<Pod> waiting = WaitingPods.of(onNode, node, toAllocateKey);
        if (lock != null && !lock.isLegacy()) {
            Pod holder = waiting.stream().filter(p -> lock.isHeldBy(p.getMetadata().getNamespace(),
                    p.getMetadata().getName())).findFirst().orElse(null);
            String holderName = lock.namespace() + "/" + lock.name();
            if (holder == null) {
                return new Match.Unmatched("node " + node + " is locked by pod " + holderName + ", which is not waiting for "
                        + vendor + " devices on this node (" + state(onNode, lock) + ")");
            }
            if (!WaitingPods.isAllocating(holder)) {
                return new Match.Unmatched("pod " + holderName + " holds the lock of node " + node
                        + " but its bind-phase is " + WaitingPods.annotations(holder).get(ProtocolKeys.BIND_PHASE));
            }
            List<Pod> others = waiting.stream().filter(p -> p != holder).toList();
            if (!others.isEmpty()) {
                return new Match.Ambiguous(ambiguity(node, vendor, waiting) + "; the node lock names " + holderName
                        + ", but the kubelet does not say which pod this Allocate is for, so it is not served");
            }
            return new Match.Serve(holder);
        }
        if (waiting.isEmpty()) {
            return new Match.Unmatched("no pod on node " + node + " is waiting for " + vendor + " devices"
                    + (lock == null ? " and the node is not locked" : " (legacy node lock without a pod)"));
        }
        if (waiting.size() > 1) {
            return new Match.Ambiguous(ambiguity(node, vendor, waiting) + " and no node lock names one of them");
        }
        Pod only = waiting.getFirst();
        if (!WaitingPods.isAllocating(only)) {
            return new Match.Unmatched("the only pod on node " + node + " waiting for " + vendor + " devices, "
                    + WaitingPods.name(only) + ", has bind-phase "
                    + WaitingPods.annotations(only).get(ProtocolKeys.BIND_PHASE) + " and no node lock");
        }
        return new Match.Serve(only);
    }

    private static String ambiguity(String node, String vendor, List<Pod> waiting) {
        return waiting.size() + " pods on node " + node + " are waiting for " + vendor + " devices ("
                + waiting.stream().map(p -> WaitingPods.name(p) + " bind-phase="
                        + WaitingPods.annotations(p).get(ProtocolKeys.BIND_PHASE)).collect(Collectors.joining(", ")) + ")";
    }

    private static String state(List<Pod> onNode, NodeLock lock) {
        return onNode.stream()
                .filter(p -> lock.isHeldBy(p.getMetadata().getNamespace(), p.getMetadata().getName()))
                .findFirst()
                .map(p -> "bind-phase=" + WaitingPods.annotations(p).get(ProtocolKeys.BIND_PHASE) + ", phase="
                        + (p.getStatus() == null ? null : p.getStatus().getPhase()))
                .orElse("not bound to this node or gone");
    }
}
