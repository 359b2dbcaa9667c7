package io.hami.backend.hygon;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitResult;
import io.hami.protocol.fit.FitWalk;
import io.hami.protocol.health.HandshakeCheck;
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

/** The Hygon HCU backend: legacy colon register annotation, the shared handshake check. */
public final class HygonBackend implements DeviceBackend {
    private final HygonConfig config;
    private final ResourceNames resources;

    public HygonBackend(HygonConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        this.resources = new ResourceNames(
                config.resourceCountName(), config.resourceMemoryName(), Optional.empty(), config.resourceCoreName());
    }

    @Override
    public String vendor() {
        return HygonKeys.VENDOR;
    }

    @Override
    public VendorKeys keys() {
        return HygonKeys.VENDOR_KEYS;
    }

    @Override
    public ResourceNames resources() {
        return resources;
    }

    /** The devices of {@code hami.io/node-hcu-register} whose type contains {@code HCU}, any case. */
    @Override
    public Discovery discover(Node node) {
        return NodeDiscovery.fromRegister(node, HygonKeys.REGISTER, RegisterCodec.COLON::decode, HygonKeys.VENDOR);
    }

    @Override
    public ContainerRequest request(Container container) {
        return HygonRequests.of(container, config);
    }

    @Override
    public FitResult fit(List<DeviceUsage> devices, ContainerRequest request, FitContext context) {
        return FitWalk.fit(devices, request, context, HygonFitRules.INSTANCE);
    }

    @Override
    public java.util.Optional<io.hami.protocol.fit.FitRules> fitRules() {
        return java.util.Optional.of(HygonFitRules.INSTANCE);
    }

    /** The memory resource counts in MiB times the memory factor (when above 1), as requests do. */
    @Override
    public int memoryUnitMiB() {
        return Math.max(config.memoryFactor(), 1);
    }

    /** The shared handshake check on {@code hami.io/node-handshake-hcu} and the Allocatable count. */
    @Override
    public HealthVerdict checkHealth(Node node, Instant now, HealthMemory previous) {
        return HandshakeCheck.check(node, HygonKeys.HANDSHAKE, config.resourceCountName(), now, previous);
    }
}
