package io.hami.plugin.vendor;

import io.hami.backend.cambricon.CambriconKeys;
import io.hami.backend.hygon.HygonKeys;
import io.hami.backend.mthreads.MthreadsKeys;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.nativebind.cndev.Cndev;
import io.hami.nativebind.hydmi.Hydmi;
import io.hami.nativebind.mtml.Mtml;
import io.hami.nativebind.nvml.Nvml;
import io.hami.nativebind.rocm.RocmSmi;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.vendor.cambricon.CambriconPlugin;
import io.hami.plugin.vendor.hygon.HygonPlugin;
import io.hami.plugin.vendor.mthreads.MthreadsPlugin;
import io.hami.plugin.vendor.nvidia.NvidiaPlugin;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * Opens a vendor's plugin by its backend name ({@code nvidia}, {@code cambricon}, {@code mthreads},
 * {@code hygon}). The library comes from the dynamic linker by SONAME, or from {@code library}: a folder that
 * holds the vendor's files under their SONAMEs, or the library file itself (Hygon's hydmi is then read from
 * the same folder).
 */
public final class VendorPlugins {
    public static final List<String> NAMES = List.of("nvidia", "cambricon", "mthreads", "hygon");

    private VendorPlugins() {
    }

    /**
     * @throws IllegalArgumentException for an unknown name
     * @throws RuntimeException         when the library cannot be loaded or initialised (a
     *                                  {@link io.hami.nativebind.NativeLibraryException} or
     *                                  {@link io.hami.nativebind.VendorStatusException})
     */
    public static VendorPlugin open(String name, Path library, DeviceBackends backends, DeviceConfig config,
                                    Sharing sharing, HostPaths paths, String node) {
        return switch (name) {
            case "nvidia" -> {
                Nvml nvml = library == null ? Nvml.open() : Nvml.open(file(library, Nvml.SONAME));
                yield closingOnFailure(nvml, () -> new NvidiaPlugin(nvml, backend(backends, NvidiaKeys.VENDOR),
                        config.nvidia(), sharing, paths, UUID::randomUUID));
            }
            case "cambricon" -> {
                Cndev cndev = library == null ? Cndev.open() : Cndev.open(file(library, Cndev.SONAME));
                yield closingOnFailure(cndev, () -> new CambriconPlugin(cndev, backend(backends, CambriconKeys.VENDOR),
                        config.cambricon(), node, paths));
            }
            case "mthreads" -> {
                Mtml mtml = library == null ? Mtml.open() : Mtml.open(file(library, Mtml.SONAME));
                yield closingOnFailure(mtml, () -> new MthreadsPlugin(mtml, backend(backends, MthreadsKeys.VENDOR),
                        config.mthreads(), node, paths));
            }
            case "hygon" -> {
                RocmSmi rocm = library == null ? RocmSmi.open() : RocmSmi.open(file(library, RocmSmi.SONAME));
                yield closingOnFailure(rocm, () -> {
                    Hydmi hydmi = library == null ? Hydmi.open() : Hydmi.open(sibling(library, Hydmi.SONAME));
                    return new HygonPlugin(rocm, hydmi, backend(backends, HygonKeys.VENDOR), config.hygon(), sharing, paths);
                });
            }
            default -> throw new IllegalArgumentException("unknown backend " + name + "; one of " + NAMES);
        };
    }

    private interface Opening {
        VendorPlugin open();
    }

    private static VendorPlugin closingOnFailure(AutoCloseable library, Opening opening) {
        try {
            return opening.open();
        } catch (RuntimeException e) {
            try {
                library.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static DeviceBackend backend(DeviceBackends backends, String vendor) {
        return backends.byVendor(vendor).orElseThrow(() ->
                new IllegalStateException("the " + vendor + " backend is not on the class path"));
    }

    private static Path file(Path library, String soname) {
        return Files.isDirectory(library) ? library.resolve(soname) : library;
    }

    private static Path sibling(Path library, String soname) {
        return Files.isDirectory(library) ? library.resolve(soname) : library.toAbsolutePath().getParent().resolve(soname);
    }
}
