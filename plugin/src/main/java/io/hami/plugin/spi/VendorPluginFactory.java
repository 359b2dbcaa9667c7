package io.hami.plugin.spi;

import java.util.function.Supplier;

/**
 * Service-provider entry of one vendor's node side, listed in
 * {@code META-INF/services/io.hami.plugin.spi.VendorPluginFactory} of the vendor's node module: the plugin's
 * counterpart of {@link io.hami.protocol.spi.DeviceBackendFactory}. {@code --backend} names one of these.
 */
public interface VendorPluginFactory {

    /** The name {@code --backend} selects it by, e.g. {@code nvidia}; lower case, unique on the class path. */
    String name();

    /**
     * The type keyword of this vendor's scheduler-side backend ({@code NVIDIA}, {@code HCU}, ...), known without
     * opening the library: while the library cannot be used, the runtime marks the devices of a register annotation
     * left from an earlier run unhealthy through that backend's keys. Empty (the default): nothing is rewritten.
     */
    default java.util.Optional<String> vendor() {
        return java.util.Optional.empty();
    }

    /**
     * Opens the vendor library and enumerates the cards.
     *
     * @throws RuntimeException when the library cannot be loaded or initialised (the runtime reports the
     *                          native bindings' {@code NativeLibraryException} and {@code VendorStatusException}
     *                          as a failure of the vendor library)
     */
    VendorPlugin open(VendorSettings settings);

    /** {@code opening.get()}, closing {@code library} when it fails, so no library stays open for nothing. */
    static VendorPlugin closingOnFailure(AutoCloseable library, Supplier<VendorPlugin> opening) {
        try {
            return opening.get();
        } catch (RuntimeException e) {
            try {
                library.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }
}
