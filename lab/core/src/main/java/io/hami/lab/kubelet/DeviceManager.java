package io.hami.lab.kubelet;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The kubelet's device manager for one node: the registered plugin endpoints by resource, and which device IDs each
 * pod holds. The resources ever registered and the pods' device IDs are its checkpoint: they survive a kubelet
 * restart, the endpoints do not.
 */
final class DeviceManager {
    private final Map<String, PluginEndpoint> endpoints = new HashMap<>();
    private final Set<String> known = new HashSet<>();
    /** Pod UID to (container index, resource) to the device IDs Allocate was called with. */
    private final Map<String, Map<Slot, List<String>>> assigned = new HashMap<>();

    /** One container's share of one resource. */
    private record Slot(int container, String resource) {}

    /** A plugin registered {@code endpoint}'s resource; an earlier endpoint of the resource is replaced. */
    synchronized void register(PluginEndpoint endpoint) {
        PluginEndpoint old = endpoints.put(endpoint.resource(), endpoint);
        if (old != null) {
            old.close();
        }
        known.add(endpoint.resource());
        notifyAll();
    }

    /** The kubelet stops: every endpoint is closed; the checkpoint stays. */
    synchronized void disconnectAll() {
        endpoints.values().forEach(PluginEndpoint::close);
        endpoints.clear();
        notifyAll();
    }

    /** Something an admission may be waiting for changed (a list arrived, a stream ended). */
    synchronized void changed() {
        notifyAll();
    }

    /** Whether a plugin ever served {@code resource} here; others are scheduler-only resources the kubelet skips. */
    synchronized boolean handles(String resource) {
        return known.contains(resource);
    }

    /**
     * The endpoint of {@code resource} once it is connected and has listed its devices, waiting until
     * {@code deadlineNanos}; null if it does not come back in time.
     */
    synchronized PluginEndpoint await(String resource, long deadlineNanos) throws InterruptedException {
        while (true) {
            PluginEndpoint e = endpoints.get(resource);
            if (e != null && e.connected() && !e.all().isEmpty()) {
                return e;
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            wait(Math.max(1, left / 1_000_000));
        }
    }

    /** Whether {@code endpoint} is still the connected endpoint of its resource. */
    synchronized boolean current(PluginEndpoint endpoint) {
        return endpoints.get(endpoint.resource()) == endpoint && endpoint.connected();
    }

    /** Healthy IDs of {@code endpoint} that no pod holds. */
    synchronized List<String> free(PluginEndpoint endpoint) {
        Set<String> held = new HashSet<>();
        assigned.values()
                .forEach(slots -> slots.forEach((slot, ids) -> {
                    if (slot.resource().equals(endpoint.resource())) {
                        held.addAll(ids);
                    }
                }));
        return endpoint.healthy().stream()
                .filter(id -> !held.contains(id))
                .sorted()
                .toList();
    }

    synchronized void assign(String podUid, int container, String resource, List<String> ids) {
        assigned.computeIfAbsent(podUid, p -> new HashMap<>()).put(new Slot(container, resource), List.copyOf(ids));
    }

    /** The IDs a container was allocated before (a restarted kubelet does not allocate it again), or null. */
    synchronized List<String> allocated(String podUid, int container, String resource) {
        return assigned.getOrDefault(podUid, Map.of()).get(new Slot(container, resource));
    }

    /** The pod ended or was refused: its device IDs are free again. */
    synchronized void release(String podUid) {
        assigned.remove(podUid);
    }

    /** Capacity and allocatable per resource of the connected endpoints, for the node status. */
    synchronized Map<String, int[]> status() {
        var out = new TreeMap<String, int[]>();
        endpoints.forEach((resource, e) ->
                out.put(resource, new int[] {e.all().size(), e.healthy().size()}));
        return out;
    }
}
