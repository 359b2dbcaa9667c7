package io.hami.fake;

import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorPluginFactory;
import io.hami.plugin.spi.VendorSettings;

/** Service-provider entry of the fake vendor's node side ({@code --backend fake}); the library is its inventory. */
public final class FakePluginFactory implements VendorPluginFactory {
    @Override
    public String name() {
        return FakeKeys.BACKEND_NAME;
    }

    @Override
    public VendorPlugin open(VendorSettings s) {
        return new FakePlugin(
                s.backend(FakeKeys.VENDOR),
                s.library(FakePlugin.INVENTORY)
                        .orElseThrow(() -> new IllegalArgumentException(
                                "the fake vendor needs --library: a folder holding " + FakePlugin.INVENTORY)),
                s.node(),
                s.deviceConfig().section(FakeConfig.SECTION));
    }
}
