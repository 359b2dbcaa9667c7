package io.hami.lab.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.lab.scenario.DeviceGroup;
import io.hami.lab.scenario.NodeSpec;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.VendorKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Nodes without plugins: their inventory is written straight into the register annotation each vendor's plugin
 * would publish, with the Allocatable count its kubelet would report, so the scheduler can be driven at a scale
 * where running a plugin per node is not the point.
 */
public final class SyntheticNodes {
    private SyntheticNodes() {}

    /**
     * A Ready Node without devices, with the resources every kubelet reports: kube-scheduler's NodeResourcesFit needs
     * room for pods.
     */
    public static Node ready(String name) {
        var base = Map.of("cpu", new Quantity("64"), "memory", new Quantity("512Gi"), "pods", new Quantity("110"));
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("kubernetes.io/hostname", name)
                .addToLabels("kubernetes.io/os", "linux")
                .endMetadata()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withReason("KubeletReady")
                .endCondition()
                .withCapacity(new HashMap<>(base))
                .withAllocatable(new HashMap<>(base))
                .endStatus()
                .build();
    }

    public static Node of(NodeSpec spec, DeviceBackends backends) {
        Node node = ready(spec.name());
        for (DeviceGroup group : spec.group().devices()) {
            DeviceBackend backend = backends.byVendor(group.vendor().keyword())
                    .orElseThrow(() -> new IllegalStateException(
                            "no backend for " + group.vendor().keyword() + " on the class path"));
            VendorKeys keys = backend.keys();
            String key = keys.registerKey()
                    .orElseThrow(() -> new IllegalArgumentException(
                            group.vendor().yamlName() + " has no register annotation to carry a synthetic inventory"));
            List<DeviceInfo> devices = inventory(spec.name(), group);
            String value = keys.registerCodec().orElseThrow().encode(devices);
            node.getMetadata().getAnnotations().put(key, value);
            Quantity count = new Quantity(Integer.toString(group.count() * group.split()));
            node.getStatus().getCapacity().put(backend.resources().count(), count);
            node.getStatus().getAllocatable().put(backend.resources().count(), count);
        }
        return node;
    }

    /** What the vendor's plugin would publish for this node: one healthy entry per card. */
    static List<DeviceInfo> inventory(String node, DeviceGroup group) {
        var devices = new ArrayList<DeviceInfo>();
        String keyword = group.vendor().keyword();
        String type = group.model().contains(keyword) ? group.model() : keyword + "-" + group.model();
        for (int i = 0; i < group.count(); i++) {
            devices.add(new DeviceInfo(
                    DeviceIds.uuid(group.vendor(), node, i),
                    i,
                    group.split(),
                    group.memory(),
                    100,
                    type,
                    group.numaOf(i),
                    "hami-core",
                    true));
        }
        return devices;
    }
}
