package io.hami.node.nvidia;

import io.hami.backend.nvidia.NvidiaConfig;
import io.hami.nativebind.nvml.Nvml;
import io.hami.nativebind.nvml.NvmlDevice;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.spi.AllocationException;
import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.ContainerGrant;
import io.hami.plugin.spi.HealthSource;
import io.hami.plugin.spi.InventoryPublisher;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.vendor.CardPlugin;
import io.hami.plugin.vendor.ReplicaSharing;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackend;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * NVIDIA GPUs shared through HAMi-core: {@code deviceSplitCount} replicas {@code <UUID>-<n>} per GPU on the
 * count resource, the inventory in {@code hami.io/node-nvidia-register} (JSON), XID and reachability health.
 */
public final class NvidiaPlugin extends CardPlugin<NvmlDevice> implements InventoryPublisher {
    private final Nvml nvml;
    private final ReplicaSharing sharing;
    private final HamiCoreGrant grant;

    /** {@code replicas}: the device config's sharing under the plugin's overrides. */
    public NvidiaPlugin(
            Nvml nvml,
            DeviceBackend backend,
            NvidiaConfig config,
            ReplicaSharing replicas,
            HostPaths paths,
            Supplier<UUID> cacheNames) {
        super(
                backend,
                nvml.devices(),
                NvidiaPlugin::device,
                List.of(replicas.resource(
                        config.resources().resourceCountName(), config.node().enableNumaTopology())));
        this.nvml = nvml;
        this.sharing = replicas;
        this.grant = new HamiCoreGrant(
                paths,
                replicas.memoryScaling(),
                config.node().libCudaLogLevel(),
                config.isolation().disableCoreLimit(),
                cacheNames);
    }

    private static PhysicalDevice device(NvmlDevice d) {
        return new PhysicalDevice(
                d.index(), d.uuid(), d.uuid(), d.name(), d.memory().totalMiB(), d.numaNode());
    }

    @Override
    public HealthSource openHealth() {
        return new NvidiaHealth(nvml, devices().size());
    }

    /** {@link ReplicaSharing#rescan}; the model is prefixed with {@code NVIDIA-} unless it starts with {@code NVIDIA}. */
    @Override
    public List<DeviceInfo> scan(Set<Integer> unhealthy) {
        String keyword = backend().vendor();
        return sharing.rescan(
                devices(),
                i -> device(nvml.device(i)),
                model -> model.startsWith(keyword) ? model : keyword + "-" + model,
                unhealthy);
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
