package io.hami.backend.nvidia;

import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackendFactory;

/** Service-provider entry of the NVIDIA backend. */
public final class NvidiaBackendFactory implements DeviceBackendFactory {
    @Override
    public String vendor() {
        return NvidiaKeys.VENDOR;
    }

    @Override
    public ConfigSection<NvidiaConfig> configSection() {
        return NvidiaConfig.SECTION;
    }

    @Override
    public DeviceBackend create(DeviceConfig config) {
        return new NvidiaBackend(config.section(NvidiaConfig.SECTION));
    }
}
