package io.hami.protocol.spi;

import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfig;

/**
 * Service-provider entry of one vendor module, listed in
 * {@code META-INF/services/io.hami.protocol.spi.DeviceBackendFactory}.
 */
public interface DeviceBackendFactory {

    /** The vendor's type keyword, the same as {@link DeviceBackend#vendor()}. */
    String vendor();

    /** The vendor's section of the device config: its record, defaults and parser. */
    ConfigSection<?> configSection();

    /** A backend with the resource names and defaults of {@code config}. */
    DeviceBackend create(DeviceConfig config);
}
