package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.NodeLock;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Design D4/D5 (docs/design.md#d4, docs/design.md#d5) for the plugin, as a pure decision: the kubelet's
 * Allocate names no pod, so the pod is the
 * one the node lock names, verified (bound here, allocating, an entry of this vendor left) and fenced. Nodes are
 * not writable by users, pods are: without a lock nothing is served, so no pod can make itself the one to serve
 * by writing its own annotations (upstream #3041/#3076). When any other pod on the node may still receive an
 * Allocate of the same resource, with a decision (upstream #3096) or without one, the call cannot be attributed
 * and is not served, because serving it could hand the holder's devices and limits to another pod.
 */
public final class PodMatcher {
    private PodMatcher() {}

    /**
     * @param node          this node
     * @param vendor        the vendor keyword, for messages
     * @param resource      the kubelet resource the Allocate is for, e.g. {@code nvidia.com/gpu}
     * @param lock          the node lock, or null when there is none
     * @param onNode        the pods bound to this node
     * @param toAllocateKey this vendor's to-allocate annotation
     */
    public static Match match(
            String node, String vendor, String resource, NodeLock lock, List<Pod> onNode, String toAllocateKey) {
        List<Pod> waiting = WaitingPods.of(onNode, node, toAllocateKey);
        if (lock == null || lock.isLegacy()) {
            return new Match.Unmatched((lock == null
                            ? "node " + node + " is not locked"
                            : "the lock of node " + node + " names no pod (legacy lock)")
                    + ": an Allocate of " + resource + " is served only for the pod the node lock names"
                    + (waiting.isEmpty() ? "" : "; waiting for " + vendor + " devices: " + describe(waiting)));
        }
        String holderName = lock.namespace() + "/" + lock.name();
        Pod holder = waiting.stream()
                .filter(p -> lock.isHeldBy(
                        p.getMetadata().getNamespace(), p.getMetadata().getName()))
                .findFirst()
                .orElse(null);
        if (holder == null) {
            return new Match.Unmatched("node " + node + " is locked by pod " + holderName
                    + ", which is not waiting for " + vendor + " devices on this node (" + state(onNode, lock) + ")");
        }
        if (!WaitingPods.isAllocating(holder)) {
            return new Match.Unmatched(
                    "pod " + holderName + " holds the lock of node " + node + " but its bind-phase is "
                            + WaitingPods.annotations(holder).get(ProtocolKeys.BIND_PHASE));
        }
        if (waiting.size() > 1) {
            return new Match.Ambiguous(waiting.size() + " pods on node " + node + " are waiting for " + vendor
                    + " devices (" + describe(waiting) + "); the node lock names " + holderName
                    + ", but the kubelet does not say which pod this Allocate is for, so it is not served");
        }
        List<Pod> undecided = WaitingPods.withoutDecision(onNode, node, resource, toAllocateKey).stream()
                .filter(p -> !WaitingPods.name(p).equals(holderName))
                .toList();
        if (!undecided.isEmpty()) {
            String names = undecided.stream().map(WaitingPods::name).collect(Collectors.joining(", "));
            return new Match.Indistinguishable(
                    "Allocate of " + resource + " on node " + node + " refused: pod "
                            + holderName + " holds the node lock, but " + (undecided.size() == 1 ? "pod " : "pods ")
                            + names
                            + " also " + (undecided.size() == 1 ? "requests " : "request ") + resource
                            + " without a decision of"
                            + " the HAMi scheduler for this node; the kubelet does not say which pod this Allocate is for, so"
                            + " it is not served",
                    holder,
                    undecided);
        }
        return new Match.Serve(holder);
    }

    private static String describe(List<Pod> pods) {
        return pods.stream()
                .map(p -> WaitingPods.name(p) + " bind-phase="
                        + WaitingPods.annotations(p).get(ProtocolKeys.BIND_PHASE))
                .collect(Collectors.joining(", "));
    }

    private static String state(List<Pod> onNode, NodeLock lock) {
        return onNode.stream()
                .filter(p -> lock.isHeldBy(
                        p.getMetadata().getNamespace(), p.getMetadata().getName()))
                .findFirst()
                .map(p -> "bind-phase=" + WaitingPods.annotations(p).get(ProtocolKeys.BIND_PHASE) + ", phase="
                        + (p.getStatus() == null ? null : p.getStatus().getPhase()))
                .orElse("not bound to this node or gone");
    }
}
