package io.hami.scheduler.usage;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.scheduler.fit.NodeView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Device usage per node, kept up to date one pod or node at a time (DECISIONS D6): no scheduling call ever
 * rebuilds it, and reading one node costs O(devices on that node).
 *
 * <p>Thread-safe: each node's entry is guarded by its own monitor; a pod moving between nodes takes the
 * two entries one after the other, never both.
 */
public final class UsageIndex {
    private final ConcurrentHashMap<String, NodeEntry> nodes = new ConcurrentHashMap<>();
    /** Pod key to the usage last recorded for it. */
    private final ConcurrentHashMap<String, PodUsage> pods = new ConcurrentHashMap<>();

    /** A node as the index serves it; {@code failClosed} lists why nothing may be placed there. */
    public record NodeSnapshot(NodeView view, List<String> failClosed) {
        public NodeSnapshot {
            failClosed = List.copyOf(failClosed);
        }
    }

    /**
     * Sets a node's inventory: per vendor keyword its devices, and per vendor the reason its inventory
     * could not be read (that vendor's devices are then not offered).
     */
    public void putNode(String node, Map<String, String> annotations, Map<String, List<DeviceInfo>> devices,
                        Map<String, String> invalidInventory) {
        var entry = nodes.computeIfAbsent(node, n -> new NodeEntry());
        synchronized (entry) {
            entry.annotations = Map.copyOf(annotations);
            entry.devices = new TreeMap<>(devices);
            entry.invalidInventory = new TreeMap<>(invalidInventory);
            entry.known = true;
        }
    }

    public void removeNode(String node) {
        var entry = nodes.get(node);
        if (entry != null) {
            synchronized (entry) {
                entry.known = false;
                entry.devices = Map.of();
                entry.invalidInventory = Map.of();
            }
        }
    }

    /** Records what pod {@code key} holds now, replacing what was recorded before. Returns the previous value. */
    public PodUsage putPod(String key, PodUsage usage) {
        PodUsage previous = usage instanceof PodUsage.NotCounted ? pods.remove(key) : pods.put(key, usage);
        if (previous != null) {
            apply(key, previous, -1);
        }
        apply(key, usage, +1);
        return previous == null ? new PodUsage.NotCounted() : previous;
    }

    public void removePod(String key) {
        putPod(key, new PodUsage.NotCounted());
    }

    private void apply(String key, PodUsage usage, int sign) {
        switch (usage) {
            case PodUsage.Counted c -> {
                var entry = nodes.computeIfAbsent(c.node(), n -> new NodeEntry());
                synchronized (entry) {
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
                    if (sign > 0) {
                        entry.undecodable.put(key, u.reason());
                    } else {
                        entry.undecodable.remove(key);
                    }
                }
            }
            case PodUsage.NotCounted n -> {
            }
        }
    }

    /** The node's devices with their usage, or empty when the node has no inventory. */
    public Optional<NodeSnapshot> snapshot(String node) {
        var entry = nodes.get(node);
        if (entry == null) {
            return Optional.empty();
        }
        synchronized (entry) {
            if (!entry.known) {
                return Optional.empty();
            }
            var devices = new TreeMap<String, List<DeviceUsage>>();
            entry.devices.forEach((vendor, list) -> {
                var usages = new ArrayList<DeviceUsage>(list.size());
                for (DeviceInfo d : list) {
                    Grant g = entry.used.getOrDefault(d.id(), Grant.ZERO);
                    usages.add(new DeviceUsage(d, g.slots(), g.mem(), g.cores()));
                }
                devices.put(vendor, usages);
            });
            var failClosed = new ArrayList<String>();
            entry.invalidInventory.forEach((vendor, reason) -> failClosed.add(vendor + " inventory unreadable: " + reason));
            failClosed.addAll(new TreeMap<>(entry.undecodable).values());
            return Optional.of(new NodeSnapshot(new NodeView(node, entry.annotations, devices), failClosed));
        }
    }

    /** Names of the nodes with an inventory. */
    public List<String> nodeNames() {
        return nodes.entrySet().stream().filter(e -> {
            synchronized (e.getValue()) {
                return e.getValue().known;
            }
        }).map(Map.Entry::getKey).sorted().toList();
    }

    /** What is recorded for pod {@code key}. */
    public PodUsage pod(String key) {
        return pods.getOrDefault(key, new PodUsage.NotCounted());
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
    }
}
