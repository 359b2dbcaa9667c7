package io.hami.scheduler.fit;

import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitResult;
import io.hami.protocol.fit.QuotaRoom;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Places a whole pod on one node (docs/upstream.md#placement): init containers one at a time on
 * the node as it is (they run in sequence), app containers together. What the placed pod then holds on each
 * device (the larger of init peak and app total) is the usage index's business ({@code Collapse}). Pure:
 * the node view is not changed.
 */
public final class NodePlacement {
    private NodePlacement() {}

    /**
     * How devices are chosen for this pod.
     *
     * @param gpuPolicy the device policy in force (pod annotation, else the scheduler's default)
     * @param weights   device scoring weights
     * @param numaBind  whether devices are grouped by NUMA node first
     */
    public record Policy(String gpuPolicy, ScoringWeights weights, boolean numaBind) {}

    /**
     * Places {@code pod} under its namespace's quota: {@code rooms} per vendor keyword (none: unlimited). Each init
     * container must fit the room alone, the app containers together.
     */
    public static Placement place(
            PodRequest pod,
            NodeView node,
            DeviceBackends backends,
            Policy policy,
            Map<String, String> podAnnotations,
            Map<String, QuotaRoom> rooms) {
        if (pod.refusal() != null) {
            return new Placement.Unplaced(Denial.unrepresentable(pod.refusal()));
        }
        int n = pod.containers().size();
        var grants = new TreeMap<String, List<List<ContainerDevice>>>();
        for (String vendor : pod.vendors()) {
            var perContainer = new ArrayList<List<ContainerDevice>>(n);
            for (int i = 0; i < n; i++) {
                perContainer.add(new ArrayList<>());
            }
            grants.put(vendor, perContainer);
        }
        // Init containers run one after another, each on the node as it is; app containers run together.
        for (int i = 0; i < pod.initCount(); i++) {
            if (!pod.containers().get(i).isEmpty()) {
                Denial failure = fitContainer(
                        i, pod, new Usage(node.devices()), node, backends, policy, podAnnotations, rooms, grants);
                if (failure != null) {
                    return new Placement.Unplaced(failure);
                }
            }
        }
        var app = new Usage(node.devices());
        for (int i = pod.initCount(); i < n; i++) {
            if (!pod.containers().get(i).isEmpty()) {
                Denial failure = fitContainer(i, pod, app, node, backends, policy, podAnnotations, rooms, grants);
                if (failure != null) {
                    return new Placement.Unplaced(failure);
                }
            }
        }
        var devices = new TreeMap<String, PodDevices>();
        grants.forEach((vendor, perContainer) -> devices.put(vendor, new PodDevices(perContainer)));
        return new Placement.Placed(devices);
    }

    /** Fits container {@code i}, adding its grants to {@code usage} and {@code grants}; null or why it does not. */
    private static Denial fitContainer(
            int i,
            PodRequest pod,
            Usage usage,
            NodeView node,
            DeviceBackends backends,
            Policy policy,
            Map<String, String> podAnnotations,
            Map<String, QuotaRoom> rooms,
            Map<String, List<List<ContainerDevice>>> grants) {
        for (Map.Entry<String, ContainerRequest> e : pod.containers().get(i).entrySet()) {
            String vendor = e.getKey();
            ContainerRequest request = e.getValue();
            DeviceBackend backend = backends.byVendor(vendor).orElse(null);
            if (backend == null) {
                return Denial.NO_BACKEND;
            }
            List<DeviceUsage> devices = usage.of(vendor);
            if (request.nums() > devices.size()) {
                return Denial.TOO_FEW_DEVICES;
            }
            var scored = new ArrayList<DeviceOrder.Scored>(devices.size());
            for (DeviceUsage d : devices) {
                scored.add(new DeviceOrder.Scored(d, DeviceScore.of(d, request, policy.weights())));
            }
            var sorted = DeviceOrder.sort(scored, policy.gpuPolicy(), policy.numaBind());
            List<ContainerDevice> earlier = i == 0
                    ? List.of()
                    : grants.get(vendor).subList(0, i).stream()
                            .flatMap(List::stream)
                            .toList();
            var context = new FitContext(
                    podAnnotations,
                    node.annotations(),
                    policy.gpuPolicy(),
                    earlier,
                    roomFor(i, pod, rooms.getOrDefault(vendor, QuotaRoom.UNLIMITED), grants.get(vendor)));
            switch (backend.fit(sorted, request, context)) {
                case FitResult.NoFit noFit -> {
                    return Denial.devices(noFit.counts(), noFit.total());
                }
                case FitResult.Fits fits -> {
                    for (FitResult.Grant g : fits.grants()) {
                        usage.add(
                                vendor,
                                g.device().device().id(),
                                g.entry().usedmem(),
                                g.entry().usedcores());
                        grants.get(vendor).get(i).add(g.entry());
                    }
                }
            }
        }
        return null;
    }

    /**
     * The quota room of container {@code i}, collapsed as the usage index counts the pod (the larger of its init
     * peak and its app sum): an init container runs alone, an app container alongside the earlier app containers.
     */
    private static QuotaRoom roomFor(int i, PodRequest pod, QuotaRoom room, List<List<ContainerDevice>> grants) {
        if (room.isUnlimited() || i < pod.initCount()) {
            return room;
        }
        long mem = 0;
        long cores = 0;
        for (int k = pod.initCount(); k < i; k++) {
            for (ContainerDevice d : grants.get(k)) {
                mem += d.usedmem();
                cores += d.usedcores();
            }
        }
        return room.minus(mem, cores);
    }

    /** A node's per-vendor usage while one pod is being placed; a vendor's list is copied on its first change. */
    private static final class Usage {
        private final Map<String, List<DeviceUsage>> base;
        private Map<String, List<DeviceUsage>> changed;

        Usage(Map<String, List<DeviceUsage>> base) {
            this.base = base;
        }

        List<DeviceUsage> of(String vendor) {
            if (changed != null && changed.containsKey(vendor)) {
                return changed.get(vendor);
            }
            return base.getOrDefault(vendor, List.of());
        }

        void add(String vendor, String id, int mem, int cores) {
            if (changed == null) {
                changed = new HashMap<>();
            }
            List<DeviceUsage> list =
                    changed.computeIfAbsent(vendor, v -> new ArrayList<>(base.getOrDefault(v, List.of())));
            for (int k = 0; k < list.size(); k++) {
                if (list.get(k).device().id().equals(id)) {
                    list.set(k, list.get(k).plus(mem, cores));
                    return;
                }
            }
            throw new IllegalStateException("fit granted device " + id + " that is not on the node");
        }
    }
}
