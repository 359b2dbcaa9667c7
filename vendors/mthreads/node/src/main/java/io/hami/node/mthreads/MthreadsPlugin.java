package io.hami.node.mthreads;

import io.hami.backend.mthreads.MthreadsConfig;
import io.hami.nativebind.mtml.Mtml;
import io.hami.nativebind.mtml.MtmlDevice;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.ContainerGrant;
import io.hami.plugin.spi.HealthSource;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.vendor.Capacity;
import io.hami.plugin.vendor.CardPlugin;
import io.hami.plugin.vendor.DeviceNodes;
import io.hami.plugin.vendor.PollingHealth;
import io.hami.protocol.spi.DeviceBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Moore Threads GPUs. The scheduler reads the node's capacity (design D1, docs/design.md#d1): 16 {@code sgpu-core} IDs and one
 * {@code sgpu-memory} ID per 512 MiB of every GPU, which grant nothing themselves. The count resource
 * ({@code mthreads.com/vgpu}, 100 IDs per GPU) carries the decision: the GPU's device node, its DRM nodes and
 * {@code MTHREADS_VISIBLE_DEVICES} with the granted GPU indexes, for the vendor's container runtime.
 */
public final class MthreadsPlugin extends CardPlugin<MtmlDevice> {
    /** The scheduler's capacity layout: device {@code i} of node {@code n} is {@code n-mthreads-i}. */
    static final String SCHEDULER_ID_INFIX = "-mthreads-";

    static final int MEMORY_UNIT_MIB = 512;
    static final int CORES_PER_GPU = 16;
    static final int TASKS_PER_GPU = 100;
    /** DRM render nodes are numbered from 128 after their card node. */
    private static final int RENDER_MINOR_BASE = 128;

    private final Mtml mtml;
    private final DeviceNodes nodes;

    public MthreadsPlugin(Mtml mtml, DeviceBackend backend, MthreadsConfig config, String node, HostPaths paths) {
        super(
                backend,
                mtml.devices(),
                g -> new PhysicalDevice(
                        g.index(),
                        g.uuid(),
                        node + SCHEDULER_ID_INFIX + g.index(),
                        g.name(),
                        g.memoryTotalBytes() >> 20,
                        g.numaNode()),
                List.of(
                        Capacity.decision(config.resourceCountName(), "vgpu", TASKS_PER_GPU),
                        Capacity.advertised(config.resourceCoreName(), "core", 0, d -> CORES_PER_GPU),
                        Capacity.advertised(
                                config.resourceMemoryName(), "memory", 0, Capacity.memoryUnits(MEMORY_UNIT_MIB))));
        this.mtml = mtml;
        this.nodes = new DeviceNodes(paths);
    }

    @Override
    public HealthSource openHealth() {
        return new PollingHealth(devices().size(), mtml::healthy);
    }

    @Override
    public ContainerGrant allocate(AllocationTarget target) {
        List<ContainerGrant.DeviceNode> devs = new ArrayList<>();
        for (PhysicalDevice device : target.cards()) {
            MtmlDevice gpu = card(device.index());
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
