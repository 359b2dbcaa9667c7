package io.hami.node.nvidia;

import io.hami.backend.nvidia.NvidiaConfig;
import io.hami.nativebind.nvml.Nvml;
import io.hami.nativebind.nvml.NvmlDevice;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.spi.AllocationException;
import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.ContainerGrant;
import io.hami.plugin.spi.HealthSource;
import io.hami.plugin.spi.InventoryPublisher;
import io.hami.plugin.spi.KubeletResource;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackend;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * NVIDIA GPUs shared through HAMi-core: {@code deviceSplitCount} replicas {@code <UUID>-<n>} per GPU on the
 * count resource, the inventory in {@code hami.io/node-nvidia-register} (JSON), XID and reachability health.
 */
public final class NvidiaPlugin implements VendorPlugin, InventoryPublisher {
    /** Operating mode written in the register annotation: HAMi-core isolation. */
    static final String MODE = "hami-core";

    private final Nvml nvml;
    private final DeviceBackend backend;
    private final int splitCount;
    private final double memoryScaling;
    private final double coreScaling;
    private final List<NvmlDevice> gpus;
    private final List<PhysicalDevice> devices;
    private final KubeletResource resource;
    private final HamiCoreGrant grant;

    public NvidiaPlugin(
            Nvml nvml,
            DeviceBackend backend,
            NvidiaConfig config,
            Sharing sharing,
            HostPaths paths,
            Supplier<UUID> cacheNames) {
        this.nvml = nvml;
        this.backend = backend;
        this.splitCount = sharing.splitCount(config.deviceSplitCount());
        this.memoryScaling = sharing.memoryScaling(config.deviceMemoryScaling());
        this.coreScaling = sharing.coreScaling(config.deviceCoreScaling());
        this.gpus = nvml.devices();
        this.devices = gpus.stream().map(NvidiaPlugin::card).toList();
        this.resource = new KubeletResource(
                config.resourceCountName(), true, KubeletResource.numbered(splitCount), config.enableNumaTopology());
        this.grant = new HamiCoreGrant(
                paths, memoryScaling, config.libCudaLogLevel(), config.disableCoreLimit(), cacheNames);
    }

    private static PhysicalDevice card(NvmlDevice d) {
        return new PhysicalDevice(
                d.index(), d.uuid(), d.uuid(), d.name(), d.memory().totalMiB(), d.numaNode());
    }

    @Override
    public DeviceBackend backend() {
        return backend;
    }

    @Override
    public List<PhysicalDevice> devices() {
        return devices;
    }

    @Override
    public List<KubeletResource> resources() {
        return List.of(resource);
    }

    @Override
    public HealthSource openHealth() {
        return new NvidiaHealth(nvml, devices.size());
    }

    @Override
    public Optional<InventoryPublisher> publisher() {
        return Optional.of(this);
    }

    /**
     * One device per GPU the plugin serves, read from NVML afresh (docs/upstream.md#plugin-register-loop): memory in
     * MiB times the memory scaling, cores 100 times the core scaling (both truncated), the model prefixed with
     * {@code NVIDIA-} unless it starts with {@code NVIDIA}, NUMA 0 where NVML cannot tell. A GPU NVML cannot read
     * is published as at start and unhealthy (upstream's scan fails whole, hiding the loss from the scheduler).
     */
    @Override
    public List<DeviceInfo> scan(Set<Integer> unhealthy) {
        String keyword = backend.vendor();
        return gpus.stream()
                .map(known -> {
                    NvmlDevice d = known;
                    boolean healthy = !unhealthy.contains(known.index());
                    try {
                        d = nvml.device(known.index());
                    } catch (RuntimeException e) {
                        healthy = false;
                    }
                    return new DeviceInfo(
                            d.uuid(),
                            d.index(),
                            splitCount,
                            (int) (d.memory().totalMiB() * memoryScaling),
                            (int) (coreScaling * 100),
                            d.name().startsWith(keyword) ? d.name() : keyword + "-" + d.name(),
                            Math.max(d.numaNode(), 0),
                            MODE,
                            healthy);
                })
                .toList();
    }

    @Override
    public boolean answersHandshake() {
        return false;
    }

    @Override
    public ContainerGrant allocate(AllocationTarget target) throws AllocationException {
        return grant.of(target);
    }

    @Override
    public void close() {
        nvml.close();
    }
}
