package io.hami.node.nvidia;

import io.hami.backend.nvidia.NvidiaConfig;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.nativebind.nvml.Nvml;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorPluginFactory;
import io.hami.plugin.spi.VendorSettings;
import java.util.UUID;

/** Service-provider entry of the NVIDIA plugin ({@code --backend nvidia}): NVML, then the cards. */
public final class NvidiaPluginFactory implements VendorPluginFactory {
    @Override
    public String name() {
        return "nvidia";
    }

    @Override
    public VendorPlugin open(VendorSettings s) {
        Nvml nvml = s.library(Nvml.SONAME).map(Nvml::open).orElseGet(Nvml::open);
        return VendorPluginFactory.closingOnFailure(
                nvml,
                () -> new NvidiaPlugin(
                        nvml,
                        s.backend(NvidiaKeys.VENDOR),
                        s.deviceConfig().section(NvidiaConfig.SECTION),
                        s.sharing(),
                        s.paths(),
                        UUID::randomUUID));
    }
}
