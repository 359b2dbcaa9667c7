package io.hami.cli.options;

import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.config.DeviceConfigException;
import io.hami.protocol.config.DeviceConfigLoader;
import io.hami.protocol.spi.DeviceBackends;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;

/** {@code --device-config-file}, shared by the scheduler and the plugins. */
public final class DeviceConfigOption {
    private static final Logger LOG = LoggerFactory.getLogger(DeviceConfigOption.class);

    @Option(
            names = "--device-config-file",
            paramLabel = "FILE",
            description =
                    "Upstream-compatible device-config.yaml (resource names and defaults per vendor). Default: built-in defaults.")
    Path file;

    /** The configuration, its warnings logged. */
    public DeviceConfig load() throws DeviceConfigException {
        if (file == null) {
            return DeviceConfig.DEFAULTS;
        }
        var loaded = DeviceConfigLoader.load(file, DeviceBackends.configSections());
        loaded.warnings().forEach(LOG::warn);
        return loaded.config();
    }
}
