package io.hami.plugin.vendor;

import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorPluginFactory;
import io.hami.plugin.spi.VendorSettings;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The service-provider entry of a vendor whose plugin sits on one native library {@code L}: opens it from
 * {@code --library} or by its SONAME, then makes the plugin over it, closing the library when that fails.
 */
public abstract class LibraryPluginFactory<L extends AutoCloseable> implements VendorPluginFactory {
    private final String name;
    private final String vendor;
    private final String soname;
    private final Function<Path, L> openFile;
    private final Supplier<L> openBySoname;

    /**
     * @param name         what {@code --backend} selects it by
     * @param vendor       the type keyword of the vendor's scheduler-side backend
     * @param soname       the library's file name in a {@code --library} folder
     * @param openFile     opens the library from a file
     * @param openBySoname opens it through the dynamic linker's search
     */
    protected LibraryPluginFactory(
            String name, String vendor, String soname, Function<Path, L> openFile, Supplier<L> openBySoname) {
        this.name = name;
        this.vendor = vendor;
        this.soname = soname;
        this.openFile = openFile;
        this.openBySoname = openBySoname;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Optional<String> vendor() {
        return Optional.of(vendor);
    }

    @Override
    public final VendorPlugin open(VendorSettings settings) {
        L library = settings.library(soname).map(openFile).orElseGet(openBySoname);
        return VendorPluginFactory.closingOnFailure(library, () -> open(library, settings));
    }

    /** The plugin over the opened {@code library}; the library is closed again when this throws. */
    protected abstract VendorPlugin open(L library, VendorSettings settings);
}
