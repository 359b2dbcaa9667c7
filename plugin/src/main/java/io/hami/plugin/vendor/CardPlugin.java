package io.hami.plugin.vendor;

import io.hami.plugin.spi.InventoryPublisher;
import io.hami.plugin.spi.KubeletResource;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.protocol.spi.DeviceBackend;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * A vendor plugin over the cards its library enumerated when it was opened: {@code C} is the library's own view
 * of a card, kept for Allocate; {@link #devices()} is the runtime's view of the same cards, in the same order.
 * A subclass that also implements {@link InventoryPublisher} is its own publisher.
 */
public abstract class CardPlugin<C> implements VendorPlugin {
    private final DeviceBackend backend;
    private final List<C> cards;
    private final List<PhysicalDevice> devices;
    private final List<KubeletResource> resources;

    protected CardPlugin(
            DeviceBackend backend, List<C> cards, Function<C, PhysicalDevice> device, List<KubeletResource> resources) {
        this.backend = backend;
        this.cards = List.copyOf(cards);
        this.devices = this.cards.stream().map(device).toList();
        this.resources = List.copyOf(resources);
    }

    /** The library's card at position {@code index} of {@link #devices()}. */
    protected final C card(int index) {
        return cards.get(index);
    }

    @Override
    public final DeviceBackend backend() {
        return backend;
    }

    @Override
    public final List<PhysicalDevice> devices() {
        return devices;
    }

    @Override
    public final List<KubeletResource> resources() {
        return resources;
    }

    @Override
    public final Optional<InventoryPublisher> publisher() {
        return this instanceof InventoryPublisher p ? Optional.of(p) : Optional.empty();
    }
}
