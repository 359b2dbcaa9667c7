package io.hami.lab.node;

import io.hami.lab.scenario.Vendor;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The identifiers a node's mock devices report: stable for a node name, vendor and index, unique across the
 * cluster, and shaped like the vendor's own ({@code GPU-<uuid>} for NVIDIA).
 */
public final class DeviceIds {
    private DeviceIds() {}

    public static String uuid(Vendor vendor, String node, int index) {
        UUID id =
                UUID.nameUUIDFromBytes((vendor.yamlName() + "/" + node + "/" + index).getBytes(StandardCharsets.UTF_8));
        return prefix(vendor) + "-" + id;
    }

    /**
     * The ID the scheduler uses for a device in pod device strings (design D1, docs/design.md#d1): the UUID for NVIDIA and Hygon,
     * {@code <node>-cambricon-mlu-<i>} and {@code <node>-mthreads-<i>} for the vendors discovered from capacity.
     */
    public static String schedulerId(Vendor vendor, String node, int index) {
        return switch (vendor) {
            case NVIDIA, HYGON -> uuid(vendor, node, index);
            case CAMBRICON -> node + "-cambricon-mlu-" + index;
            case MTHREADS -> node + "-mthreads-" + index;
        };
    }

    /** A PCI bus ID unique on the node: one bus per device, vendors on separate ranges. */
    public static String pciBusId(Vendor vendor, int index) {
        return String.format("00000000:%02X:00.0", vendor.ordinal() * 64 + index + 1);
    }

    private static String prefix(Vendor vendor) {
        return switch (vendor) {
            case NVIDIA -> "GPU";
            case CAMBRICON -> "MLU";
            case MTHREADS -> "MTT";
            case HYGON -> "HCU";
        };
    }
}
