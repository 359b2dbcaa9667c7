package io.hami.node.cambricon;

import io.hami.backend.cambricon.CambriconConfig;
import io.hami.backend.cambricon.CambriconKeys;
import io.hami.nativebind.cndev.Cndev;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorSettings;
import io.hami.plugin.vendor.LibraryPluginFactory;

/** Service-provider entry of the Cambricon MLU plugin ({@code --backend cambricon}): CNDev, then the cards. */
public final class CambriconPluginFactory extends LibraryPluginFactory<Cndev> {
    public CambriconPluginFactory() {
        super("cambricon", CambriconKeys.VENDOR, Cndev.SONAME, Cndev::open, Cndev::open);
    }

    @Override
    protected VendorPlugin open(Cndev cndev, VendorSettings s) {
        CambriconConfig config = s.deviceConfig().section(CambriconConfig.SECTION);
        return new CambriconPlugin(cndev, s.backend(CambriconKeys.VENDOR), config, s.node(), s.paths());
    }
}
