package io.hami.scheduler.usage;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.scheduler.fit.NodeSummary;
import io.hami.scheduler.fit.NodeView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Device usage per node, kept up to date one pod or node at a time (design D6, docs/design.md#d6): no scheduling call ever
 * rebuilds it, and reading one node costs O(devices on that node).
 *
 * <p>Thread-safe: pod updates are serialised on the index (they are cheap), each node's entry is guarded
 * by its own monitor so readers of one node do not wait for writers of another. Reading a node that has not
 * changed since its last read takes no lock (its snapshot is published through a volatile field).
 */
public final class UsageIndex {
    private final ConcurrentHashMap<String, NodeEntry> nodes = new ConcurrentHashMap<>();
    /** Pod key to the usage last recorded for it. */
    private final ConcurrentHashMap<String, PodUsage> pods = new ConcurrentHashMap<>();
    /** Namespace to vendor keyword to what its counted pods hold, guarded by {@code this}. */
    private final Map<String, Map<String, Grant>> namespaces = new HashMap<>();
    /** Pod key to the highest resourceVersion recorded, guarded by {@code this}. */
    private final java.util.HashMap<String, Long> versions = new java.util.HashMap<>();
    /** Told of every pod change recorded; none until {@link #listen}. */
    private volatile PodListener listener = PodListener.NONE;

    /** Who wants to know what each pod change did to the index (the requeue on release). */
    @FunctionalInterface
    public interface PodListener {
        /**
         * Pod {@code key} went from {@code before} to {@code after}; {@code gone} when the pod was deleted. Called
         * under the index's lock, in the order of the changes: must be quick and must not call back into the index.
         */
        void changed(String key, PodUsage before, PodUsage after, boolean gone);

        PodListener NONE = (key, before, after, gone) -> {};
    }

    /** From now on tells {@code l} of every pod change (one listener; the last set wins). */
    public void listen(PodListener l) {
        listener = l;
    }

    /**
     * A node as the index serves it; {@code failClosed} lists why nothing may be placed there, {@code summary} is
     * the view's devices as filter's fast path reads them.
     */
    public record NodeSnapshot(NodeView view, List<String> failClosed, NodeSummary summary) {
        public NodeSnapshot {
            failClosed = List.copyOf(failClosed);
        }

        public NodeSnapshot(NodeView view, List<String> failClosed) {
            this(view, failClosed, NodeSummary.of(view.devices()));
        }

        /**
         * Whether the node has no devices of any vendor and nothing that makes it fail closed: upstream has not
         * registered such a node, and filter says {@code node unregistered} of it.
         */
        public boolean noDevices() {
            if (!failClosed.isEmpty()) {
                return false;
            }
            for (var list : view.devices().values()) {
                if (!list.isEmpty()) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * {@code node} as {@code devices} describes it with nothing in use on it: a node object filter is sent that the
     * index does not follow (a cluster-autoscaler template), read as upstream's simulation path reads it.
     */
    public static NodeSnapshot unused(String node, NodeDevices devices) {
        var entry = new NodeEntry();
        entry.annotations = devices.annotations();
        entry.devices = new TreeMap<>(devices.devices());
        entry.invalidInventory = new TreeMap<>(devices.invalid());
        return build(node, entry, Map.of(), null);
    }

    /**
     * Sets a node's inventory: per vendor keyword its devices, and per vendor the reason its inventory
     * could not be read (that vendor's devices are then not offered).
     */
    public void putNode(
            String node,
            Map<String, String> annotations,
            Map<String, List<DeviceInfo>> devices,
            Map<String, String> invalidInventory) {
        var entry = nodes.computeIfAbsent(node, n -> new NodeEntry());
        synchronized (entry) {
            entry.annotations = Map.copyOf(annotations);
            entry.devices = new TreeMap<>(devices);
            entry.invalidInventory = new TreeMap<>(invalidInventory);
            entry.known = true;
            entry.cached = null;
        }
    }

    public void removeNode(String node) {
        var entry = nodes.get(node);
        if (entry != null) {
            synchronized (entry) {
                entry.known = false;
                entry.devices = Map.of();
                entry.invalidInventory = Map.of();
                entry.cached = null;
            }
        }
    }

    /** Records what pod {@code key} holds now, replacing what was recorded before. Returns the previous value. */
    public PodUsage putPod(String key, PodUsage usage) {
        return putPod(key, usage, null);
    }

    /**
     * As {@link #putPod(String, PodUsage)}, but ignored when an update of the pod with a higher
     * {@code resourceVersion} was already recorded: a direct read from the API server may overtake the
     * informer, whose older event must then not undo it.
     */
    public synchronized PodUsage putPod(String key, PodUsage usage, String resourceVersion) {
        long rv = version(resourceVersion);
        Long seen = versions.get(key);
        if (rv >= 0 && seen != null && seen > rv) {
            return pods.getOrDefault(key, new PodUsage.NotCounted());
        }
        if (rv >= 0) {
            versions.put(key, rv);
        }
        return record(key, usage, false);
    }

    private PodUsage record(String key, PodUsage usage, boolean gone) {
        PodUsage previous = usage instanceof PodUsage.NotCounted ? pods.remove(key) : pods.put(key, usage);
        if (previous != null) {
            apply(key, previous, -1);
        }
        apply(key, usage, +1);
        PodUsage before = previous == null ? new PodUsage.NotCounted() : previous;
        listener.changed(key, before, usage, gone);
        return before;
    }

    /** The pod is gone: forget it and what it held. */
    public synchronized void removePod(String key) {
        versions.remove(key);
        record(key, new PodUsage.NotCounted(), true);
    }

    private static long version(String resourceVersion) {
        if (resourceVersion == null) {
            return -1;
        }
        try {
            return Long.parseLong(resourceVersion);
        } catch (NumberFormatException e) {
            return -1; // opaque versions cannot be ordered; take the update
        }
    }

    private void apply(String key, PodUsage usage, int sign) {
        switch (usage) {
            case PodUsage.Counted c -> {
                String namespace = namespaceOf(key);
                var perVendor = namespaces.computeIfAbsent(namespace, ns -> new HashMap<>());
                c.byVendor().forEach((vendor, g) -> {
                    Grant sum = perVendor.getOrDefault(vendor, Grant.ZERO);
                    sum = sign > 0 ? sum.plus(g) : sum.minus(g);
                    if (sum.isZero()) {
                        perVendor.remove(vendor);
                    } else {
                        perVendor.put(vendor, sum);
                    }
                });
                if (perVendor.isEmpty()) {
                    namespaces.remove(namespace);
                }
                var entry = nodes.computeIfAbsent(c.node(), n -> new NodeEntry());
                synchronized (entry) {
                    entry.cached = null;
                    c.grants().forEach((uuid, g) -> {
                        Grant sum = entry.used.getOrDefault(uuid, Grant.ZERO);
                        sum = sign > 0 ? sum.plus(g) : sum.minus(g);
                        if (sum.isZero()) {
                            entry.used.remove(uuid);
                        } else {
                            entry.used.put(uuid, sum);
                        }
                    });
                }
            }
            case PodUsage.Undecodable u -> {
                var entry = nodes.computeIfAbsent(u.node(), n -> new NodeEntry());
                synchronized (entry) {
                    entry.cached = null;
                    if (sign > 0) {
                        entry.undecodable.put(key, u.reason());
                    } else {
                        entry.undecodable.remove(key);
                    }
                }
            }
            case PodUsage.NotCounted n -> {}
        }
    }

    /**
     * What the counted pods of {@code namespace} hold per vendor keyword, without pod {@code excludedPod} (a
     * pod being bound again must not count against its own quota twice).
     */
    public synchronized Map<String, Grant> namespaceUsage(String namespace, String excludedPod) {
        var sums = new HashMap<>(namespaces.getOrDefault(namespace, Map.of()));
        if (excludedPod != null && pods.get(excludedPod) instanceof PodUsage.Counted c) {
            c.byVendor()
                    .forEach((vendor, g) -> sums.put(
                            vendor, sums.getOrDefault(vendor, Grant.ZERO).minus(g)));
        }
        return Map.copyOf(sums);
    }

    private static String namespaceOf(String podKey) {
        int slash = podKey.indexOf('/');
        return slash < 0 ? "" : podKey.substring(0, slash);
    }

    /** The node's devices with their usage, or empty when the node has no inventory. */
    public Optional<NodeSnapshot> snapshot(String node) {
        return snapshot(node, null);
    }

    /**
     * The node as {@link #snapshot(String)} gives it, but without what pod {@code excludedPod} holds there:
     * a pod being bound again must not compete with its own earlier reservation.
     */
    public Optional<NodeSnapshot> snapshot(String node, String excludedPod) {
        if (excludedPod == null) {
            return Optional.ofNullable(current(node));
        }
        Map<String, Grant> own = excludedPod != null
                        && pods.get(excludedPod) instanceof PodUsage.Counted c
                        && c.node().equals(node)
                ? c.grants()
                : Map.of();
        var entry = nodes.get(node);
        if (entry == null) {
            return Optional.empty();
        }
        synchronized (entry) {
            if (!entry.known) {
                return Optional.empty();
            }
            if (own.isEmpty() && !entry.undecodable.containsKey(excludedPod)) {
                // Filter reads every candidate node per call; most nodes have not changed since the last one.
                if (entry.cached == null) {
                    entry.cached = build(node, entry, Map.of(), null);
                }
                return Optional.of(entry.cached);
            }
            return Optional.of(build(node, entry, own, excludedPod));
        }
    }

    /**
     * The node as {@link #snapshot(String)} gives it, or null when it has no inventory: filter's read, which takes no
     * lock while the node has not changed since it was last read.
     */
    public NodeSnapshot current(String node) {
        var entry = nodes.get(node);
        if (entry == null) {
            return null;
        }
        NodeSnapshot cached = entry.cached;
        if (cached != null) {
            return cached; // set only while the node is known, cleared under the lock by every change
        }
        synchronized (entry) {
            if (!entry.known) {
                return null;
            }
            if (entry.cached == null) {
                entry.cached = build(node, entry, Map.of(), null);
            }
            return entry.cached;
        }
    }

    private static NodeSnapshot build(String node, NodeEntry entry, Map<String, Grant> own, String excludedPod) {
        var devices = new TreeMap<String, List<DeviceUsage>>();
        entry.devices.forEach((vendor, list) -> {
            var usages = new ArrayList<DeviceUsage>(list.size());
            for (DeviceInfo d : list) {
                Grant g = entry.used.getOrDefault(d.id(), Grant.ZERO).minus(own.getOrDefault(d.id(), Grant.ZERO));
                usages.add(new DeviceUsage(d, saturated(g.slots()), saturated(g.mem()), saturated(g.cores())));
            }
            devices.put(vendor, List.copyOf(usages));
        });
        var failClosed = new ArrayList<String>();
        entry.invalidInventory.forEach((vendor, reason) -> failClosed.add(vendor + " inventory unreadable: " + reason));
        entry.undecodable.entrySet().stream()
                .filter(e -> !e.getKey().equals(excludedPod))
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> failClosed.add(e.getValue()));
        return new NodeSnapshot(new NodeView(node, entry.annotations, devices), failClosed);
    }

    /** A sum as the fit walk reads it: more than an int holds is full (never wrapped), and never below zero. */
    private static int saturated(long sum) {
        return Math.clamp(sum, 0, Integer.MAX_VALUE);
    }

    /** Per node, how many pods' allocations cannot be read there (each makes the node fail closed). */
    public Map<String, Integer> undecodablePods() {
        var out = new TreeMap<String, Integer>();
        nodes.forEach((node, entry) -> {
            synchronized (entry) {
                if (!entry.undecodable.isEmpty()) {
                    out.put(node, entry.undecodable.size());
                }
            }
        });
        return out;
    }

    /** Names of the nodes with an inventory. */
    public List<String> nodeNames() {
        return nodes.entrySet().stream()
                .filter(e -> {
                    synchronized (e.getValue()) {
                        return e.getValue().known;
                    }
                })
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    private static final class NodeEntry {
        boolean known;
        Map<String, String> annotations = Map.of();
        Map<String, List<DeviceInfo>> devices = Map.of();
        Map<String, String> invalidInventory = Map.of();
        /** Device UUID to the sum over counted pods. */
        final Map<String, Grant> used = new HashMap<>();
        /** Pod key to why its allocation cannot be read. */
        final Map<String, String> undecodable = new HashMap<>();
        /** The snapshot as of the last change, built on first read after it; read without the lock. */
        volatile NodeSnapshot cached;
    }
}
