package io.hami.scheduler.usage;

import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.Discovery;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Node object's inventory as every vendor's discovery reads it: the one decode of a node, used for the nodes the
 * index follows and for the node objects filter is sent that it does not know (cluster-autoscaler templates). A
 * register that claims more than the node's Allocatable ({@link RegisterCap}) is invalid, like one that does not
 * decode.
 *
 * @param annotations the node's annotations
 * @param devices     per vendor keyword its devices
 * @param invalid     per vendor keyword why its inventory could not be read
 */
public record NodeDevices(
        Map<String, String> annotations, Map<String, List<DeviceInfo>> devices, Map<String, String> invalid) {

    public NodeDevices {
        annotations = Map.copyOf(annotations);
        devices = Map.copyOf(devices);
        invalid = Map.copyOf(invalid);
    }

    /** {@code node}'s inventory, leaving out the vendors in {@code withdrawn} (found unhealthy there). */
    public static NodeDevices read(Node node, DeviceBackends backends, Set<String> withdrawn) {
        var devices = new HashMap<String, List<DeviceInfo>>();
        var invalid = new HashMap<String, String>();
        for (DeviceBackend b : backends.all()) {
            if (withdrawn.contains(b.vendor())) {
                continue;
            }
            switch (b.discover(node)) {
                case Discovery.Found f ->
                    RegisterCap.exceeded(node, b, f.devices())
                            .ifPresentOrElse(
                                    over -> invalid.put(b.vendor(), over), () -> devices.put(b.vendor(), f.devices()));
                case Discovery.Invalid i -> invalid.put(b.vendor(), i.reason());
                case Discovery.Absent a -> {}
            }
        }
        var annotations = new HashMap<String, String>();
        if (node.getMetadata() != null && node.getMetadata().getAnnotations() != null) {
            node.getMetadata().getAnnotations().forEach((k, v) -> {
                if (k != null && v != null) {
                    annotations.put(k, v);
                }
            });
        }
        return new NodeDevices(annotations, devices, invalid);
    }
}
