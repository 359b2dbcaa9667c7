package io.hami.monitor.metrics;

import io.hami.nativebind.NativeLibraryException;
import io.hami.nativebind.VendorStatusException;
import io.hami.nativebind.nvml.Nvml;
import io.hami.nativebind.nvml.NvmlDevice;
import io.hami.nativebind.nvml.NvmlUtilization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's GPUs through NVML: their identity read once, their memory in use and utilisation per scrape. A node
 * where NVML cannot be loaded has no host gauges (logged once); a GPU whose memory reading fails is left out of
 * that scrape, one whose utilisation reading fails has no utilisation gauges.
 */
public final class HostGpus implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HostGpus.class);

    private final Nvml nvml;
    private final List<NvmlDevice> devices;

    private HostGpus(Nvml nvml, List<NvmlDevice> devices) {
        this.nvml = nvml;
        this.devices = devices;
    }

    /** NVML from {@code library} (a file, or null for the dynamic linker's {@code libnvidia-ml.so.1}). */
    public static HostGpus open(Path library) {
        try {
            Nvml nvml = library == null ? Nvml.open() : Nvml.open(library);
            return new HostGpus(nvml, nvml.devices());
        } catch (NativeLibraryException | VendorStatusException e) {
            LOG.warn("no host GPU metrics: NVML unavailable: {}", e.getMessage());
            return new HostGpus(null, List.of());
        }
    }

    /** A node without NVML. */
    public static HostGpus none() {
        return new HostGpus(null, List.of());
    }

    public List<HostGpu> read() {
        var out = new ArrayList<HostGpu>(devices.size());
        for (NvmlDevice d : devices) {
            try {
                out.add(new HostGpu(
                        d.index(),
                        d.uuid(),
                        "NVIDIA-" + d.name(),
                        nvml.memory(d.index()).usedBytes(),
                        utilization(d)));
            } catch (NativeLibraryException | VendorStatusException e) {
                LOG.debug("GPU {} left out of this scrape: {}", d.index(), e.getMessage());
            }
        }
        return out;
    }

    private Optional<NvmlUtilization> utilization(NvmlDevice d) {
        try {
            return Optional.of(nvml.utilization(d.index()));
        } catch (NativeLibraryException | VendorStatusException e) {
            LOG.debug("GPU {} utilisation left out of this scrape: {}", d.index(), e.getMessage());
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        if (nvml != null) {
            nvml.close();
        }
    }
}
