package io.hami.scheduler.cluster;

import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.Discovery;
import io.hami.scheduler.usage.UsageIndex;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Feeds node inventories into the usage index: every vendor's discovery on every node change, minus the
 * vendors the handshake loop found unhealthy on that node.
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
        Set<String> withdrawn = unhealthy.getOrDefault(name, Set.of());
        var devices = new HashMap<String, List<DeviceInfo>>();
        var invalid = new HashMap<String, String>();
        for (DeviceBackend b : backends.all()) {
            if (withdrawn.contains(b.vendor())) {
                continue;
            }
            switch (b.discover(node)) {
                case Discovery.Found f -> devices.put(b.vendor(), f.devices());
                case Discovery.Invalid i -> invalid.put(b.vendor(), i.reason());
                case Discovery.Absent a -> {}
            }
        }
        var annotations = node.getMetadata().getAnnotations() == null
                ? Map.<String, String>of()
                : node.getMetadata().getAnnotations();
        index.putNode(name, annotations, devices, invalid);
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
