package io.hami.lab.scenario;

import java.util.Optional;

/**
 * One node of a {@link NodeGroup}.
 *
 * @param name    the node name
 * @param ordinal its position in the group, which makes its device IDs unique across the cluster
 * @param group   the group it belongs to
 */
public record NodeSpec(String name, int ordinal, NodeGroup group) {
    public Optional<DeviceGroup> devices(Vendor vendor) {
        return group.devices().stream().filter(d -> d.vendor() == vendor).findFirst();
    }

    public boolean synthetic() {
        return group.synthetic();
    }
}
