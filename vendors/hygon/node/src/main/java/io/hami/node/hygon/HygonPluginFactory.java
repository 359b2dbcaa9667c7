package io.hami.node.hygon;

import io.hami.backend.hygon.HygonConfig;
import io.hami.backend.hygon.HygonKeys;
import io.hami.nativebind.hydmi.Hydmi;
import io.hami.nativebind.rocm.RocmSmi;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorSettings;
import io.hami.plugin.vendor.LibraryPluginFactory;
import io.hami.plugin.vendor.ReplicaSharing;

/**
 * Service-provider entry of the Hygon HCU plugin ({@code --backend hygon}): rocm_smi, then hydmi from the same
 * folder (or the dynamic linker), then the cards.
 */
public final class HygonPluginFactory extends LibraryPluginFactory<RocmSmi> {
    public HygonPluginFactory() {
        super("hygon", HygonKeys.VENDOR, RocmSmi.SONAME, RocmSmi::open, RocmSmi::open);
    }

    @Override
    protected VendorPlugin open(RocmSmi rocm, VendorSettings s) {
        Hydmi hydmi = s.besideLibrary(Hydmi.SONAME).map(Hydmi::open).orElseGet(Hydmi::open);
        HygonConfig config = s.deviceConfig().section(HygonConfig.SECTION);
        var replicas = ReplicaSharing.of(s.sharing(), HygonPlugin.DEFAULT_SPLIT_COUNT, 1.0, 1.0);
        return new HygonPlugin(rocm, hydmi, s.backend(HygonKeys.VENDOR), config, replicas, s.paths());
    }
}
