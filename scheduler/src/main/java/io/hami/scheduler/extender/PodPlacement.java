package io.hami.scheduler.extender;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.fit.NodePlacement;
import io.hami.scheduler.fit.Placement;
import io.hami.scheduler.fit.PodRequest;
import io.hami.scheduler.fit.ScoringWeights;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.UsageIndex;
import java.util.HashMap;
import java.util.Map;

/**
 * "Place this pod on this node": one pod's placement inputs, built the same way by filter (then asked of every
 * candidate) and by bind (asked of its node again, under the node lock), so the two cannot drift apart.
 *
 * @param podAnnotations immutable, as {@link io.hami.scheduler.fit.QuickFit} needs them
 * @param rooms          the namespace's quota room per vendor keyword (none: unlimited), not counting the pod itself
 */
public record PodPlacement(
        PodRequest request,
        DeviceBackends backends,
        NodePlacement.Policy policy,
        Map<String, String> podAnnotations,
        Map<String, QuotaRoom> rooms) {

    /** The inputs of {@code pod}, whose device request is {@code request}; fails when its scoring weights are invalid. */
    public static PodPlacement of(
            Pod pod, PodRequest request, DeviceBackends backends, SchedulingPolicy policy, QuotaBook quotas)
            throws ScoringWeights.InvalidWeightsException {
        Map<String, String> annotations = immutable(Extender.annotations(pod));
        String namespace = pod.getMetadata() == null ? null : pod.getMetadata().getNamespace();
        Map<String, QuotaRoom> rooms = namespace == null
                ? Map.of()
                : quotas.rooms(namespace, namespace + "/" + pod.getMetadata().getName());
        return new PodPlacement(request, backends, policy.placementFor(annotations, backends), annotations, rooms);
    }

    /**
     * The pod on {@code node} (null: the index does not know it), by the full placement. A node without devices is
     * unregistered, as upstream registers only nodes with devices.
     */
    public Placement on(UsageIndex.NodeSnapshot node) {
        if (node == null || node.noDevices()) {
            return new Placement.Unplaced(Denial.UNREGISTERED);
        }
        if (!node.failClosed().isEmpty()) {
            return new Placement.Unplaced(Denial.failsClosed(node.failClosed()));
        }
        return NodePlacement.place(request, node.view(), backends, policy, podAnnotations, rooms);
    }

    /** An annotation without a value reads as absent, so it is dropped rather than refused by {@link Map#copyOf}. */
    private static Map<String, String> immutable(Map<String, String> annotations) {
        var kept = new HashMap<String, String>(annotations.size() * 2);
        annotations.forEach((k, v) -> {
            if (v != null) {
                kept.put(k, v);
            }
        });
        return Map.copyOf(kept);
    }
}
