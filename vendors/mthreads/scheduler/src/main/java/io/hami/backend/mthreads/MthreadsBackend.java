package io.hami.backend.mthreads;

import io.fabric8.kubernetes.api.model.Container;
import io.hami.protocol.quantity.QuantityLimit;
import io.hami.protocol.spi.Admission;
import io.hami.protocol.spi.CapacityBackend;
import io.hami.protocol.spi.NodeDiscovery;
import io.hami.protocol.spi.ResourceNames;
import java.util.List;
import java.util.Optional;

/** The Moore Threads backend: devices from node Capacity ({@code <node>-mthreads-<i>}), no handshake, one GPU per pod. */
public final class MthreadsBackend extends CapacityBackend {
    /** Cores of one GPU in the capacity resources. */
    static final int CORES_PER_DEVICE = 16;

    private final MthreadsConfig config;

    public MthreadsBackend(MthreadsConfig config) {
        super(
                MthreadsKeys.VENDOR_KEYS,
                new ResourceNames(
                        config.resourceCountName(),
                        config.resourceMemoryName(),
                        Optional.empty(),
                        config.resourceCoreName()),
                new NodeDiscovery.CapacityLayout(
                        config.resourceCoreName(),
                        config.resourceMemoryName(),
                        CORES_PER_DEVICE,
                        MthreadsRequests.MEMORY_UNIT_MIB,
                        "mthreads",
                        MthreadsKeys.VENDOR),
                container -> MthreadsRequests.of(container, config),
                MthreadsFitRules.INSTANCE);
        this.config = config;
    }

    /** As the default, but cores count sixteenths of a GPU summed over the container's GPUs (divided by the count). */
    @Override
    public List<QuantityLimit> quantityLimits() {
        return super.quantityLimits().stream()
                .map(l -> l.resource().equals(config.resourceCoreName())
                        ? new QuantityLimit(
                                l.resource(),
                                Integer.MAX_VALUE,
                                CORES_PER_DEVICE + "ths of a GPU, summed over its GPUs")
                        : l)
                .toList();
    }

    @Override
    public Admission admit(Container container) {
        return MthreadsAdmission.admit(container, config);
    }
}
