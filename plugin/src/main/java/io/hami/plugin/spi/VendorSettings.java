package io.hami.plugin.spi;

import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link VendorPluginFactory} opens its plugin with: the plugin's settings that concern a vendor.
 *
 * @param node         this node's name
 * @param library      the vendor library: a file, or a folder holding the vendor's files under their SONAMEs;
 *                     null for the dynamic linker's search by SONAME
 * @param backends     every scheduler-side backend on the class path, made with {@code deviceConfig}
 * @param deviceConfig resource names and node defaults ({@code device-config.yaml})
 * @param sharing      split count and scalings over the vendor's defaults
 * @param paths        host paths of device nodes and the plugin's folders
 * @param topologyScore NVIDIA: publish the GPU pair scores ({@code --topology-score})
 */
public record VendorSettings(
        String node,
        Path library,
        DeviceBackends backends,
        DeviceConfig deviceConfig,
        Sharing sharing,
        HostPaths paths,
        boolean topologyScore) {

    /** Without the topology score. */
    public VendorSettings(
            String node,
            Path library,
            DeviceBackends backends,
            DeviceConfig deviceConfig,
            Sharing sharing,
            HostPaths paths) {
        this(node, library, backends, deviceConfig, sharing, paths, false);
    }

    public VendorSettings {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(backends, "backends");
        Objects.requireNonNull(deviceConfig, "deviceConfig");
        Objects.requireNonNull(sharing, "sharing");
        Objects.requireNonNull(paths, "paths");
    }

    /** The scheduler-side backend of type keyword {@code vendor}; its module must be on the class path. */
    public DeviceBackend backend(String vendor) {
        return backends.byVendor(vendor)
                .orElseThrow(() -> new IllegalStateException("the " + vendor + " backend is not on the class path"));
    }

    /** The library file named {@code soname}: the given file, or {@code soname} in the given folder; empty without one. */
    public Optional<Path> library(String soname) {
        return Optional.ofNullable(library).map(l -> Files.isDirectory(l) ? l.resolve(soname) : l);
    }

    /**
     * A second library {@code soname} beside the first (Hygon's hydmi next to rocm_smi): in the given folder, or
     * in the folder of the given file; empty without a library.
     */
    public Optional<Path> besideLibrary(String soname) {
        return Optional.ofNullable(library)
                .map(l -> Files.isDirectory(l)
                        ? l.resolve(soname)
                        : l.toAbsolutePath().getParent().resolve(soname));
    }
}
