package io.hami.plugin.spi;

import io.hami.protocol.spi.DeviceBackend;
import java.util.List;
import java.util.Optional;

/**
 * The node side of one vendor: its cards from the vendor library, the kubelet resources it serves, where
 * health comes from, what a container gets, and what it publishes on the Node. Everything vendor-neutral
 * (sockets, registration, finding the pod, annotation writes, the register loop) is the runtime's.
 * Implementations hold the vendor library open until {@link #close()}.
 */
public interface VendorPlugin extends AutoCloseable {

    /** The vendor's scheduler-side backend: its type keyword and annotation keys. */
    DeviceBackend backend();

    /** The cards, enumerated when the plugin was opened, in the library's order. */
    List<PhysicalDevice> devices();

    /** The resources to serve; exactly one of them consumes the scheduler's entries. */
    List<KubeletResource> resources();

    /** A new health source over {@link #devices()}; the caller closes it. */
    HealthSource openHealth();

    /** The inventory this vendor publishes in a Node annotation, or empty when capacity is its inventory. */
    Optional<InventoryPublisher> publisher();

    /**
     * Sets up one container's devices (creating virtual devices where the vendor needs them) and says what the
     * container gets.
     */
    ContainerGrant allocate(AllocationTarget target) throws AllocationException;

    @Override
    void close();

    /** UIDs of the pods holding something this plugin created for them (sMLU instances, virtual HCUs). */
    default java.util.Set<String> podsHoldingInstances() {
        return java.util.Set.of();
    }

    /** Frees what was created for pod {@code podUid}; called once that pod has ended or is gone. */
    default void release(String podUid) {}
}
