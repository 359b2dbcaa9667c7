package io.hami.backend.mthreads;

import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackendFactory;

/** Service-provider entry of the Moore Threads backend. */
public final class MthreadsBackendFactory implements DeviceBackendFactory {
    @Override
    public String vendor() {
        return MthreadsKeys.VENDOR;
    }

    @Override
    public ConfigSection<MthreadsConfig> configSection() {
        return MthreadsConfig.SECTION;
    }

    @Override
    public DeviceBackend create(DeviceConfig config) {
        return new MthreadsBackend(config.section(MthreadsConfig.SECTION));
    }
}
