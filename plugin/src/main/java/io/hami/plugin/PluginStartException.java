package io.hami.plugin;

import io.hami.nativebind.NativeLibraryException;
import io.hami.nativebind.VendorStatusException;

/** The plugin cannot start (no vendor library, no devices, no API server); the message says what to fix. */
public final class PluginStartException extends Exception {
    public PluginStartException(String message, Throwable cause) {
        super(message, cause);
    }

    public PluginStartException(String message) {
        super(message);
    }

    /**
     * Whether the vendor library is what failed (missing, damaged, or its init refused): a cause a running
     * {@link PluginProcess} waits out, unlike a bad setting or a port in use.
     */
    public boolean vendorLibrary() {
        return getCause() instanceof NativeLibraryException || getCause() instanceof VendorStatusException;
    }
}
