package io.hami.node.nvidia;

import io.hami.backend.nvidia.NvidiaConfig;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.nativebind.nvml.Nvml;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorSettings;
import io.hami.plugin.vendor.LibraryPluginFactory;
import io.hami.plugin.vendor.ReplicaSharing;
import java.util.UUID;

/** Service-provider entry of the NVIDIA plugin ({@code --backend nvidia}): NVML, then the cards. */
public final class NvidiaPluginFactory extends LibraryPluginFactory<Nvml> {
    public NvidiaPluginFactory() {
        super("nvidia", Nvml.SONAME, Nvml::open, Nvml::open);
    }

    @Override
    protected VendorPlugin open(Nvml nvml, VendorSettings s) {
        NvidiaConfig config = s.deviceConfig().section(NvidiaConfig.SECTION);
        NvidiaConfig.Node node = config.node();
        var replicas = ReplicaSharing.of(
                s.sharing(), node.deviceSplitCount(), node.deviceMemoryScaling(), node.deviceCoreScaling());
        return new NvidiaPlugin(nvml, s.backend(NvidiaKeys.VENDOR), config, replicas, s.paths(), UUID::randomUUID);
    }
}
