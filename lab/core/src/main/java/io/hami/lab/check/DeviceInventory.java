package io.hami.lab.check;

import io.hami.lab.node.DeviceIds;
import io.hami.lab.scenario.DeviceGroup;
import io.hami.lab.scenario.NodeSpec;
import io.hami.lab.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Every device of a scenario's cluster, by node and scheduler ID, in scenario order. */
public final class DeviceInventory {
    private final Map<String, Map<String, DeviceCapacity>> byNode = new LinkedHashMap<>();

    private DeviceInventory() {}

    public static DeviceInventory of(Scenario scenario) {
        var inventory = new DeviceInventory();
        for (NodeSpec node : scenario.nodeSpecs()) {
            var devices = new LinkedHashMap<String, DeviceCapacity>();
            for (DeviceGroup g : node.group().devices()) {
                for (int i = 0; i < g.count(); i++) {
                    String id = DeviceIds.schedulerId(g.vendor(), node.name(), i);
                    devices.put(
                            id,
                            new DeviceCapacity(
                                    node.name(),
                                    g.vendor(),
                                    i,
                                    id,
                                    g.model(),
                                    g.vendor().registered() ? g.split() : 0,
                                    g.memory(),
                                    g.vendor().cores()));
                }
            }
            inventory.byNode.put(node.name(), devices);
        }
        return inventory;
    }

    public Optional<DeviceCapacity> find(String node, String id) {
        return Optional.ofNullable(byNode.getOrDefault(node, Map.of()).get(id));
    }

    public List<DeviceCapacity> all() {
        var out = new ArrayList<DeviceCapacity>();
        byNode.values().forEach(m -> out.addAll(m.values()));
        return out;
    }
}
