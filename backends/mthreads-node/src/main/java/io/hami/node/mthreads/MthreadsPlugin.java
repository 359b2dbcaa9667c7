package io.hami.node.mthreads;

import io.hami.backend.mthreads.MthreadsConfig;
import io.hami.nativebind.mtml.Mtml;
import io.hami.nativebind.mtml.MtmlDevice;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.ContainerGrant;
import io.hami.plugin.spi.HealthSource;
import io.hami.plugin.spi.InventoryPublisher;
import io.hami.plugin.spi.KubeletResource;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.vendor.DeviceNodes;
import io.hami.plugin.vendor.PollingHealth;
import io.hami.protocol.spi.DeviceBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Moore Threads GPUs. The scheduler reads the node's capacity (design D1, docs/design.md#d1): 16 {@code sgpu-core} IDs and one
 * {@code sgpu-memory} ID per 512 MiB of every GPU, which grant nothing themselves. The count resource
 * ({@code mthreads.com/vgpu}, 100 IDs per GPU) carries the decision: the GPU's device node, its DRM nodes and
 * {@code MTHREADS_VISIBLE_DEVICES} with the granted GPU indexes, for the vendor's container runtime.
 */
public final class MthreadsPlugin implements VendorPlugin {
    /** The scheduler's capacity layout: device {@code i} of node {@code n} is {@code n-mthreads-i}. */
    static final String SCHEDULER_ID_INFIX = "-mthreads-";

    static final int MEMORY_UNIT_MIB = 512;
    static final int CORES_PER_GPU = 16;
    static final int TASKS_PER_GPU = 100;
    /** DRM render nodes are numbered from 128 after their card node. */
    private static final int RENDER_MINOR_BASE = 128;

    private final Mtml mtml;
    private final DeviceBackend backend;
    private final List<MtmlDevice> gpus;
    private final List<PhysicalDevice> devices;
    private final List<KubeletResource> resources;
    private final DeviceNodes nodes;

    public MthreadsPlugin(Mtml mtml, DeviceBackend backend, MthreadsConfig config, String node, HostPaths paths) {
        this.mtml = mtml;
        this.backend = backend;
        this.gpus = mtml.devices();
        this.devices = gpus.stream()
                .map(g -> new PhysicalDevice(
                        g.index(),
                        g.uuid(),
                        node + SCHEDULER_ID_INFIX + g.index(),
                        g.name(),
                        g.memoryTotalBytes() >> 20,
                        g.numaNode()))
                .toList();
        this.resources = List.of(
                new KubeletResource(
                        config.resourceCountName(), true, KubeletResource.named("vgpu", 0, d -> TASKS_PER_GPU), false),
                new KubeletResource(
                        config.resourceCoreName(), false, KubeletResource.named("core", 0, d -> CORES_PER_GPU), false),
                new KubeletResource(
                        config.resourceMemoryName(),
                        false,
                        KubeletResource.named("memory", 0, d -> (int) (d.memoryMiB() / MEMORY_UNIT_MIB)),
                        false));
        this.nodes = new DeviceNodes(paths);
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
        return resources;
    }

    @Override
    public HealthSource openHealth() {
        return new PollingHealth(devices.size(), mtml::healthy);
    }

    @Override
    public Optional<InventoryPublisher> publisher() {
        return Optional.empty();
    }

    @Override
    public ContainerGrant allocate(AllocationTarget target) {
        List<ContainerGrant.DeviceNode> devs = new ArrayList<>();
        for (PhysicalDevice card : target.cards()) {
            MtmlDevice gpu = gpus.get(card.index());
            int minor = minor(gpu.gpuPath());
            devs.add(nodes.node(gpu.gpuPath(), "rw"));
            devs.add(nodes.node("/dev/dri/card" + minor, "rw"));
            devs.add(nodes.node("/dev/dri/renderD" + (RENDER_MINOR_BASE + minor), "rw"));
        }
        String visible = target.cards().stream()
                .map(c -> Integer.toString(c.index()))
                .distinct()
                .collect(Collectors.joining(","));
        return new ContainerGrant(Map.of("MTHREADS_VISIBLE_DEVICES", visible), List.of(), devs, Map.of());
    }

    /** N of {@code /dev/mtgpu.N}. */
    private static int minor(String gpuPath) {
        return Integer.parseInt(gpuPath.substring(gpuPath.lastIndexOf('.') + 1));
    }

    @Override
    public void close() {
        mtml.close();
    }
}
