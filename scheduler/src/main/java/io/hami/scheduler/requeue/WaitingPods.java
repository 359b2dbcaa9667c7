package io.hami.scheduler.requeue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pending pods filter found unschedulable on every candidate node, with the vendors they ask for, in the order
 * they are to be nudged: first found unschedulable first, a nudged pod behind those not nudged since (so a burst's
 * cap does not nudge the same pods every time). At most {@code capacity} pods: past it the one at the front goes
 * (kube-scheduler's own five-minute flush still retries it). Not thread-safe.
 */
public final class WaitingPods {
    /** One waiting pod: {@code key} is {@code namespace/name}. */
    public record Waiting(String namespace, String name, Set<String> vendors) {
        public Waiting {
            vendors = Set.copyOf(vendors);
        }

        public String key() {
            return namespace + "/" + name;
        }
    }

    private final int capacity;
    private final LinkedHashMap<String, Waiting> pods = new LinkedHashMap<>();

    public WaitingPods(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    /** Filter found {@code pod} unschedulable: remembered, keeping its place when it already waits. */
    public void unschedulable(Waiting pod) {
        if (pod.vendors().isEmpty()) {
            return;
        }
        pods.put(pod.key(), pod); // an existing key keeps its place in a LinkedHashMap
        if (pods.size() > capacity) {
            Iterator<String> first = pods.keySet().iterator();
            first.next();
            first.remove();
        }
    }

    /** The pod was bound, deleted, holds devices now or fits somewhere: no longer waiting. */
    public void forget(String key) {
        pods.remove(key);
    }

    /**
     * Up to {@code limit} pods that ask for any of {@code vendors}, in nudge order; each goes behind every other pod,
     * as nudged.
     */
    public List<Waiting> nudge(Set<String> vendors, int limit) {
        var chosen = new ArrayList<Waiting>();
        for (Waiting w : pods.values()) {
            if (chosen.size() == limit) {
                break;
            }
            if (w.vendors().stream().anyMatch(vendors::contains)) {
                chosen.add(w);
            }
        }
        for (Waiting w : chosen) {
            pods.remove(w.key());
            pods.put(w.key(), w);
        }
        return chosen;
    }

    /** How many pods ask for any of {@code vendors}. */
    public int waitingFor(Set<String> vendors) {
        int n = 0;
        for (Waiting w : pods.values()) {
            if (w.vendors().stream().anyMatch(vendors::contains)) {
                n++;
            }
        }
        return n;
    }

    public int size() {
        return pods.size();
    }

    /** The waiting pods in nudge order, keyed {@code namespace/name}. */
    public Map<String, Waiting> view() {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pods));
    }
}
