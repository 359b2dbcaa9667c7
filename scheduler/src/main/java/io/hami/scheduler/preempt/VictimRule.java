package io.hami.scheduler.preempt;

import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.scheduler.extender.PodPlacement;
import io.hami.scheduler.fit.NodeView;
import io.hami.scheduler.fit.Placement;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.UsageIndex;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The preempt verb's rule for one candidate node (docs/operators.md#preemption). kube-scheduler proposes victims from
 * what it counts (CPU, memory, pods, and the count resource when it is visible to it); we judge the devices. The node is
 * left out when the pod does not fit its devices (the same fit as /filter, quota included) even with every victim gone.
 * Otherwise victims holding devices there are reprieved one by one, most important first, each kept running when the
 * pod still fits its devices without evicting it and the resources kube-scheduler counts still fit. Pure.
 */
public final class VictimRule {
    private VictimRule() {}

    /**
     * One victim kube-scheduler proposes on the node.
     *
     * @param uid        the pod's UID, as kube-scheduler names it
     * @param grants     device UUID to what it holds on this node; empty: nothing here, or a pod we do not know
     * @param quotaFreed per vendor keyword, what evicting it gives back to the preemptor's namespace quota (empty when it
     *                   runs in another namespace)
     * @param requests   what kube-scheduler counts of it, resource name to amount ({@code pods} included); empty when
     *                   unknown
     */
    public record Victim(
            String uid, Map<String, Grant> grants, Map<String, Grant> quotaFreed, Map<String, BigDecimal> requests) {
        public Victim {
            grants = Map.copyOf(grants);
            quotaFreed = Map.copyOf(quotaFreed);
            requests = Map.copyOf(requests);
        }

        /** A victim we know nothing of, or that holds no device on the node: always kept. */
        public static Victim opaque(String uid) {
            return new Victim(uid, Map.of(), Map.of(), Map.of());
        }
    }

    /**
     * The node's resources as kube-scheduler counts them: only resources the pod requests and the node's allocatable
     * lists are compared.
     *
     * @param allocatable the node's {@code status.allocatable}, {@code pods} included
     * @param staying     the summed requests of the pods on the node that are not victims
     * @param pod         the preemptor's requests ({@code pods}: 1)
     */
    public record Resources(
            Map<String, BigDecimal> allocatable, Map<String, BigDecimal> staying, Map<String, BigDecimal> pod) {
        /** Nothing known of the node's resources: only the devices decide. */
        public static final Resources UNKNOWN = new Resources(Map.of(), Map.of(), Map.of());

        public Resources {
            allocatable = Map.copyOf(allocatable);
            staying = Map.copyOf(staying);
            pod = Map.copyOf(pod);
        }

        /** Whether the pod fits what kube-scheduler counts with the staying pods and {@code reprieved} on the node. */
        boolean fitWith(Collection<Victim> reprieved) {
            for (var want : pod.entrySet()) {
                BigDecimal room = allocatable.get(want.getKey());
                if (room == null) {
                    continue;
                }
                room = room.subtract(staying.getOrDefault(want.getKey(), BigDecimal.ZERO));
                for (Victim v : reprieved) {
                    room = room.subtract(v.requests().getOrDefault(want.getKey(), BigDecimal.ZERO));
                }
                if (room.compareTo(want.getValue()) < 0) {
                    return false;
                }
            }
            return true;
        }
    }

    /** What to tell kube-scheduler of one node. */
    public sealed interface Answer {
        /** The pod does not fit the node's devices even with every victim gone: the node is left out. */
        record LeftOut() implements Answer {}

        /**
         * Evict these victims (by UID, in kube-scheduler's order); {@code reprieved} others holding devices were not
         * needed.
         */
        record Evict(List<String> uids, int reprieved) implements Answer {
            public Evict {
                uids = List.copyOf(uids);
            }
        }
    }

    /**
     * The answer for {@code node} (null: the index does not know it), where {@code pod} is to be placed and
     * kube-scheduler proposes {@code victims}, most important first.
     */
    public static Answer decide(
            UsageIndex.NodeSnapshot node, PodPlacement pod, List<Victim> victims, Resources resources) {
        if (node == null || victims.isEmpty() || !fits(node, pod, victims)) {
            return new Answer.LeftOut();
        }
        var spared = new boolean[victims.size()];
        int evicted = victims.size();
        for (int i = 0; i < victims.size(); i++) {
            // kube-scheduler refuses a node with no victim, and it chose each one for something it counts.
            if (victims.get(i).grants().isEmpty() || evicted == 1) {
                continue;
            }
            spared[i] = true;
            if (resources.fitWith(pick(victims, spared, true)) && fits(node, pod, pick(victims, spared, false))) {
                evicted--;
            } else {
                spared[i] = false;
            }
        }
        return new Answer.Evict(
                pick(victims, spared, false).stream().map(Victim::uid).toList(), victims.size() - evicted);
    }

    /** The victims whose {@code spared} flag is {@code want}, in order. */
    private static List<Victim> pick(List<Victim> victims, boolean[] spared, boolean want) {
        var out = new ArrayList<Victim>(victims.size());
        for (int i = 0; i < victims.size(); i++) {
            if (spared[i] == want) {
                out.add(victims.get(i));
            }
        }
        return out;
    }

    /** Whether the pod fits the node's devices and its quota once {@code evicted} are gone. */
    static boolean fits(UsageIndex.NodeSnapshot node, PodPlacement pod, Collection<Victim> evicted) {
        var freedQuota = new HashMap<String, Grant>();
        var freedDevices = new HashMap<String, Grant>();
        for (Victim v : evicted) {
            v.grants().forEach((uuid, g) -> freedDevices.merge(uuid, g, Grant::plus));
            v.quotaFreed().forEach((vendor, g) -> freedQuota.merge(vendor, g, Grant::plus));
        }
        var without = new UsageIndex.NodeSnapshot(without(node.view(), freedDevices), node.failClosed());
        var rooms = new HashMap<String, QuotaRoom>(pod.rooms());
        freedQuota.forEach(
                (vendor, g) -> rooms.computeIfPresent(vendor, (k, room) -> room.minus(-g.mem(), -g.cores())));
        var placement = new PodPlacement(pod.request(), pod.backends(), pod.policy(), pod.podAnnotations(), rooms);
        return placement.on(without) instanceof Placement.Placed;
    }

    /** {@code view} with {@code freed} (device UUID to grant) no longer in use; never below nothing in use. */
    static NodeView without(NodeView view, Map<String, Grant> freed) {
        if (freed.isEmpty()) {
            return view;
        }
        var devices = new TreeMap<String, List<DeviceUsage>>();
        view.devices().forEach((vendor, list) -> {
            var out = new ArrayList<DeviceUsage>(list.size());
            for (DeviceUsage d : list) {
                Grant g = freed.get(d.device().id());
                out.add(
                        g == null
                                ? d
                                : new DeviceUsage(
                                        d.device(),
                                        less(d.used(), g.slots()),
                                        less(d.usedmem(), g.mem()),
                                        less(d.usedcores(), g.cores())));
            }
            devices.put(vendor, List.copyOf(out));
        });
        return new NodeView(view.name(), view.annotations(), devices);
    }

    private static int less(int used, long freed) {
        return (int) Math.clamp(used - freed, 0, Integer.MAX_VALUE);
    }
}
