package io.hami.backend.hygon;

import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackendFactory;

/** Service-provider entry of the Hygon HCU backend. */
public final class HygonBackendFactory implements DeviceBackendFactory {
    @Override
    public String vendor() {
        return HygonKeys.VENDOR;
    }

    @Override
    public ConfigSection<HygonConfig> configSection() {
        return HygonConfig.SECTION;
    }

    @Override
    public DeviceBackend create(DeviceConfig config) {
        return new HygonBackend(config.section(HygonConfig.SECTION));
    }
}
