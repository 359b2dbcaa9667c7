package io.hami.protocol.spi;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitResult;
import io.hami.protocol.fit.FitRules;
import io.hami.protocol.fit.FitWalk;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.health.HealthVerdict;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A backend whose devices are read from the node's Capacity (design D1, docs/design.md#d1) and whose plugin answers no handshake
 * (Cambricon, Moore Threads): a vendor supplies its keys, resource names, capacity layout, request rule and
 * fit rules.
 */
public abstract class CapacityBackend implements DeviceBackend {
    private final VendorKeys keys;
    private final ResourceNames resources;
    private final NodeDiscovery.CapacityLayout layout;
    private final Function<Container, ContainerRequest> requests;
    private final FitRules rules;

    protected CapacityBackend(
            VendorKeys keys,
            ResourceNames resources,
            NodeDiscovery.CapacityLayout layout,
            Function<Container, ContainerRequest> requests,
            FitRules rules) {
        this.keys = Objects.requireNonNull(keys, "keys");
        this.resources = Objects.requireNonNull(resources, "resources");
        this.layout = Objects.requireNonNull(layout, "layout");
        this.requests = Objects.requireNonNull(requests, "requests");
        this.rules = Objects.requireNonNull(rules, "rules");
    }

    @Override
    public final String vendor() {
        return layout.type();
    }

    @Override
    public final VendorKeys keys() {
        return keys;
    }

    @Override
    public final ResourceNames resources() {
        return resources;
    }

    /** One device {@code <node>-<infix>-<i>} per {@code coresPerDevice} of the core capacity. */
    @Override
    public final Discovery discover(Node node) {
        return NodeDiscovery.fromCapacity(node, layout);
    }

    @Override
    public final ContainerRequest request(Container container) {
        return requests.apply(container);
    }

    @Override
    public final FitResult fit(List<DeviceUsage> devices, ContainerRequest request, FitContext context) {
        return FitWalk.fit(devices, request, context, rules);
    }

    @Override
    public final java.util.Optional<FitRules> fitRules() {
        return java.util.Optional.of(rules);
    }

    @Override
    public final int memoryUnitMiB() {
        return layout.memoryUnitMiB();
    }

    @Override
    public final HealthVerdict checkHealth(Node node, Instant now, HealthMemory previous) {
        return HealthVerdict.NO_HANDSHAKE;
    }
}
