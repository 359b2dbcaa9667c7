package io.hami.node.cambricon;

import io.hami.backend.cambricon.CambriconConfig;
import io.hami.backend.cambricon.CambriconKeys;
import io.hami.nativebind.cndev.Cndev;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorPluginFactory;
import io.hami.plugin.spi.VendorSettings;

/** Service-provider entry of the Cambricon MLU plugin ({@code --backend cambricon}): CNDev, then the cards. */
public final class CambriconPluginFactory implements VendorPluginFactory {
    @Override
    public String name() {
        return "cambricon";
    }

    @Override
    public VendorPlugin open(VendorSettings s) {
        Cndev cndev = s.library(Cndev.SONAME).map(Cndev::open).orElseGet(Cndev::open);
        return VendorPluginFactory.closingOnFailure(
                cndev,
                () -> new CambriconPlugin(
                        cndev,
                        s.backend(CambriconKeys.VENDOR),
                        s.deviceConfig().section(CambriconConfig.SECTION),
                        s.node(),
                        s.paths()));
    }
}
