package io.hami.protocol.quantity;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import java.util.Map;

/** Reads a container's extended resources the way every upstream vendor does: limits first, then requests. */
public final class ContainerResources {
    private ContainerResources() {}

    /** The resource {@code name} of {@code container}; {@link ResourceAmount.Absent} for an empty name. */
    public static ResourceAmount read(Container container, String name) {
        ResourceRequirements resources = container.getResources();
        if (name.isEmpty() || resources == null) {
            return new ResourceAmount.Absent();
        }
        Quantity quantity = lookup(resources.getLimits(), name);
        if (quantity == null) {
            quantity = lookup(resources.getRequests(), name);
        }
        return quantity == null ? new ResourceAmount.Absent() : ResourceAmount.of(quantity);
    }

    private static Quantity lookup(Map<String, Quantity> list, String name) {
        return list == null ? null : list.get(name);
    }
}
