package io.hami.lab.scenario;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code count} identical nodes named {@code <name>-0}, {@code <name>-1}, ...
 *
 * @param name      prefix of the node names
 * @param count     how many nodes
 * @param synthetic true: no plugins and no kubelet; the inventory is written straight into register annotations
 *                  (for scheduling at scale)
 * @param devices   the node's accelerators, at most one group per vendor
 */
public record NodeGroup(String name, Integer count, Boolean synthetic, List<DeviceGroup> devices) {
    public NodeGroup {
        count = count == null ? 1 : count;
        synthetic = synthetic != null && synthetic;
        devices = devices == null ? List.of() : List.copyOf(devices);
    }

    public List<NodeSpec> expand() {
        var nodes = new ArrayList<NodeSpec>();
        for (int i = 0; i < count; i++) {
            nodes.add(new NodeSpec(name + "-" + i, i, this));
        }
        return nodes;
    }
}
