package io.hami.fake;

import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackendFactory;

/** Service-provider entry of the fake vendor's scheduler side, with its own device config section. */
public final class FakeBackendFactory implements DeviceBackendFactory {
    @Override
    public String vendor() {
        return FakeKeys.VENDOR;
    }

    @Override
    public ConfigSection<FakeConfig> configSection() {
        return FakeConfig.SECTION;
    }

    @Override
    public DeviceBackend create(DeviceConfig config) {
        return new FakeBackend(config.section(FakeConfig.SECTION));
    }
}
