package io.hami.scheduler.fit;

import io.hami.protocol.fit.DeviceUsage;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One node as placement sees it: its annotations and, per vendor keyword, its devices with current usage.
 */
public record NodeView(String name, Map<String, String> annotations, Map<String, List<DeviceUsage>> devices) {
    public NodeView {
        Objects.requireNonNull(name);
        annotations = Map.copyOf(annotations);
        devices = Map.copyOf(devices);
    }

    public List<DeviceUsage> devicesOf(String vendor) {
        return devices.getOrDefault(vendor, List.of());
    }
}
