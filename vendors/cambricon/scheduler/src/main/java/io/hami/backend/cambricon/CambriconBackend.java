package io.hami.backend.cambricon;

import io.hami.protocol.spi.CapacityBackend;
import io.hami.protocol.spi.NodeDiscovery;
import io.hami.protocol.spi.ResourceNames;
import java.util.Optional;

/** The Cambricon MLU backend: devices from node Capacity ({@code <node>-cambricon-mlu-<i>}), no handshake. */
public final class CambriconBackend extends CapacityBackend {
    /** Cores of one MLU in the capacity resources. */
    static final int CORES_PER_DEVICE = 100;

    public CambriconBackend(CambriconConfig config) {
        super(
                CambriconKeys.VENDOR_KEYS,
                new ResourceNames(
                        config.resourceCountName(),
                        config.resourceMemoryName(),
                        Optional.empty(),
                        config.resourceCoreName()),
                new NodeDiscovery.CapacityLayout(
                        config.resourceCoreName(),
                        config.resourceMemoryName(),
                        CORES_PER_DEVICE,
                        CambriconRequests.MEMORY_UNIT_MIB,
                        "cambricon-mlu",
                        CambriconKeys.VENDOR),
                container -> CambriconRequests.of(container, config),
                CambriconFitRules.INSTANCE);
    }
}
