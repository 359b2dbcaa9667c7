package io.hami.node.hygon;

import io.hami.backend.hygon.HygonConfig;
import io.hami.backend.hygon.HygonKeys;
import io.hami.nativebind.hydmi.Hydmi;
import io.hami.nativebind.rocm.RocmSmi;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorPluginFactory;
import io.hami.plugin.spi.VendorSettings;

/**
 * Service-provider entry of the Hygon HCU plugin ({@code --backend hygon}): rocm_smi, then hydmi from the same
 * folder (or the dynamic linker), then the cards.
 */
public final class HygonPluginFactory implements VendorPluginFactory {
    @Override
    public String name() {
        return "hygon";
    }

    @Override
    public VendorPlugin open(VendorSettings s) {
        RocmSmi rocm = s.library(RocmSmi.SONAME).map(RocmSmi::open).orElseGet(RocmSmi::open);
        return VendorPluginFactory.closingOnFailure(rocm, () -> {
            Hydmi hydmi = s.besideLibrary(Hydmi.SONAME).map(Hydmi::open).orElseGet(Hydmi::open);
            return new HygonPlugin(
                    rocm,
                    hydmi,
                    s.backend(HygonKeys.VENDOR),
                    s.deviceConfig().section(HygonConfig.SECTION),
                    s.sharing(),
                    s.paths());
        });
    }
}
