package io.hami.node.mthreads;

import io.hami.backend.mthreads.MthreadsConfig;
import io.hami.backend.mthreads.MthreadsKeys;
import io.hami.nativebind.mtml.Mtml;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorSettings;
import io.hami.plugin.vendor.LibraryPluginFactory;

/** Service-provider entry of the Moore Threads plugin ({@code --backend mthreads}): MTML, then the cards. */
public final class MthreadsPluginFactory extends LibraryPluginFactory<Mtml> {
    public MthreadsPluginFactory() {
        super("mthreads", MthreadsKeys.VENDOR, Mtml.SONAME, Mtml::open, Mtml::open);
    }

    @Override
    protected VendorPlugin open(Mtml mtml, VendorSettings s) {
        MthreadsConfig config = s.deviceConfig().section(MthreadsConfig.SECTION);
        return new MthreadsPlugin(mtml, s.backend(MthreadsKeys.VENDOR), config, s.node(), s.paths());
    }
}
