package io.hami.backend.cambricon;

import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackendFactory;

/** Service-provider entry of the Cambricon MLU backend. */
public final class CambriconBackendFactory implements DeviceBackendFactory {
    @Override
    public String vendor() {
        return CambriconKeys.VENDOR;
    }

    @Override
    public ConfigSection<CambriconConfig> configSection() {
        return CambriconConfig.SECTION;
    }

    @Override
    public DeviceBackend create(DeviceConfig config) {
        return new CambriconBackend(config.section(CambriconConfig.SECTION));
    }
}
