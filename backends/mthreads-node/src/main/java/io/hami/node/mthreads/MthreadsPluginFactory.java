package io.hami.node.mthreads;

import io.hami.backend.mthreads.MthreadsConfig;
import io.hami.backend.mthreads.MthreadsKeys;
import io.hami.nativebind.mtml.Mtml;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorPluginFactory;
import io.hami.plugin.spi.VendorSettings;

/** Service-provider entry of the Moore Threads plugin ({@code --backend mthreads}): MTML, then the cards. */
public final class MthreadsPluginFactory implements VendorPluginFactory {
    @Override
    public String name() {
        return "mthreads";
    }

    @Override
    public VendorPlugin open(VendorSettings s) {
        Mtml mtml = s.library(Mtml.SONAME).map(Mtml::open).orElseGet(Mtml::open);
        return VendorPluginFactory.closingOnFailure(
                mtml,
                () -> new MthreadsPlugin(
                        mtml,
                        s.backend(MthreadsKeys.VENDOR),
                        s.deviceConfig().section(MthreadsConfig.SECTION),
                        s.node(),
                        s.paths()));
    }
}
