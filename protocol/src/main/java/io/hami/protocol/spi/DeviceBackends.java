package io.hami.protocol.spi;

import io.hami.protocol.config.ConfigSection;
import io.hami.protocol.config.DeviceConfig;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** The vendors on the class path, configured and in byte order of their keyword (upstream's lock order). */
public record DeviceBackends(List<DeviceBackend> all) {

    public DeviceBackends {
        all = all.stream().sorted(Comparator.comparing(DeviceBackend::vendor)).toList();
    }

    /** Every {@link DeviceBackendFactory} found by {@link ServiceLoader}, made with {@code config}. */
    public static DeviceBackends load(DeviceConfig config) {
        return new DeviceBackends(
                factories().stream().map(f -> f.create(config)).toList());
    }

    /** The device config sections of the vendors on the class path. */
    public static List<ConfigSection<?>> configSections() {
        return factories().stream()
                .<ConfigSection<?>>map(DeviceBackendFactory::configSection)
                .toList();
    }

    private static List<DeviceBackendFactory> factories() {
        return ServiceLoader.load(DeviceBackendFactory.class).stream()
                .map(ServiceLoader.Provider::get)
                .toList();
    }

    public Optional<DeviceBackend> byVendor(String vendor) {
        return all.stream().filter(b -> b.vendor().equals(vendor)).findFirst();
    }
}
