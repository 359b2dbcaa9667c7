package io.hami.backend.mthreads;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitResult;
import io.hami.protocol.fit.FitWalk;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.health.HealthVerdict;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.Discovery;
import io.hami.protocol.spi.NodeDiscovery;
import io.hami.protocol.spi.ResourceNames;
import io.hami.protocol.spi.VendorKeys;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** The Moore Threads backend: devices from node Capacity, no handshake, one GPU per pod. */
public final class MthreadsBackend implements DeviceBackend {
    /** Cores of one GPU in the capacity resources. */
    static final int CORES_PER_DEVICE = 16;

    private final DeviceConfig.Mthreads config;
    private final ResourceNames resources;
    private final NodeDiscovery.CapacityLayout layout;

    public MthreadsBackend(DeviceConfig.Mthreads config) {
        this.config = Objects.requireNonNull(config, "config");
        this.resources = new ResourceNames(config.resourceCountName(), config.resourceMemoryName(), Optional.empty(),
                config.resourceCoreName());
        this.layout = new NodeDiscovery.CapacityLayout(config.resourceCoreName(), config.resourceMemoryName(),
                CORES_PER_DEVICE, MthreadsRequests.MEMORY_UNIT_MIB, "mthreads", MthreadsKeys.VENDOR);
    }

    @Override
    public String vendor() {
        return MthreadsKeys.VENDOR;
    }

    @Override
    public VendorKeys keys() {
        return MthreadsKeys.VENDOR_KEYS;
    }

    @Override
    public ResourceNames resources() {
        return resources;
    }

    /** One device {@code <node>-mthreads-<i>} per 16 cores of the core capacity. */
    @Override
    public Discovery discover(Node node) {
        return NodeDiscovery.fromCapacity(node, layout);
    }

    @Override
    public ContainerRequest request(Container container) {
        return MthreadsRequests.of(container, config);
    }

    @Override
    public FitResult fit(List<DeviceUsage> devices, ContainerRequest request, FitContext context) {
        return FitWalk.fit(devices, request, context, MthreadsFitRules.INSTANCE);
    }

    @Override
    public io.hami.protocol.spi.Admission admit(Container container) {
        return MthreadsAdmission.admit(container, config);
    }

    @Override
    public HealthVerdict checkHealth(Node node, Instant now, HealthMemory previous) {
        return HealthVerdict.NO_HANDSHAKE;
    }
}
