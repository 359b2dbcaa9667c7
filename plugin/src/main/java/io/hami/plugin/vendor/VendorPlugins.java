package io.hami.plugin.vendor;

import io.hami.plugin.spi.VendorPluginFactory;
import java.util.Comparator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The vendors whose node module is on the class path, found by {@link ServiceLoader} as the scheduler finds its
 * backends, in order of their name. {@code --backend} is checked against these; no vendor is named here.
 */
public record VendorPlugins(List<VendorPluginFactory> all) {

    public VendorPlugins {
        all = all.stream()
                .sorted(Comparator.comparing(VendorPluginFactory::name))
                .toList();
        for (int i = 1; i < all.size(); i++) {
            if (all.get(i).name().equals(all.get(i - 1).name())) {
                throw new IllegalStateException(
                        "two node modules serve the backend " + all.get(i).name());
            }
        }
    }

    /** Every {@link VendorPluginFactory} on the class path. */
    public static VendorPlugins load() {
        return new VendorPlugins(ServiceLoader.load(VendorPluginFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList());
    }

    /** The names {@code --backend} accepts. */
    public List<String> names() {
        return all.stream().map(VendorPluginFactory::name).toList();
    }

    /** @throws IllegalArgumentException for a name no factory serves, listing those that are present */
    public VendorPluginFactory byName(String name) {
        return all.stream()
                .filter(f -> f.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        all.isEmpty()
                                ? "unknown backend " + name + "; no vendor's node module is installed"
                                : "unknown backend " + name + "; one of " + names()));
    }
}
