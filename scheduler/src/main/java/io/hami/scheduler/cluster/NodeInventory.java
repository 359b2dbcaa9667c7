package io.hami.scheduler.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.usage.NodeDevices;
import io.hami.scheduler.usage.UsageIndex;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Feeds node inventories into the usage index: every vendor's discovery ({@link NodeDevices#read}) on every node
 * change, minus the vendors the handshake loop found unhealthy on that node.
 */
public final class NodeInventory {
    private final UsageIndex index;
    private final DeviceBackends backends;
    /** Node name to the vendors whose devices are withdrawn there (design D3, docs/design.md#d3). */
    private final Map<String, Set<String>> unhealthy = new ConcurrentHashMap<>();

    public NodeInventory(UsageIndex index, DeviceBackends backends) {
        this.index = index;
        this.backends = backends;
    }

    /** Re-reads {@code node}'s devices into the index. */
    public void refresh(Node node) {
        String name = node.getMetadata().getName();
        var read = NodeDevices.read(node, backends, unhealthy.getOrDefault(name, Set.of()));
        index.putNode(name, read.annotations(), read.devices(), read.invalid());
    }

    /** {@code node} cannot be read: it fails closed (not offered) until it can, with {@code reason} as filter's reason. */
    public void unreadable(String node, String reason) {
        index.putNode(node, Map.of(), Map.of(), Map.of("node", reason));
    }

    public void remove(String node) {
        unhealthy.remove(node);
        index.removeNode(node);
    }

    /** Marks {@code vendor} on {@code node} healthy or not; returns true when that changed. */
    public boolean setHealthy(String node, String vendor, boolean healthy) {
        var set = unhealthy.computeIfAbsent(node, n -> ConcurrentHashMap.newKeySet());
        return healthy ? set.remove(vendor) : set.add(vendor);
    }
}
