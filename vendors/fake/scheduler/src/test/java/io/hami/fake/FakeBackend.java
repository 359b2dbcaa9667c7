package io.hami.fake;

import io.fabric8.kubernetes.api.model.Container;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceSelector;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitRules;
import io.hami.protocol.quantity.ContainerResources;
import io.hami.protocol.spi.CapacityBackend;
import io.hami.protocol.spi.NodeDiscovery;
import io.hami.protocol.spi.ResourceNames;
import java.util.Optional;
import java.util.OptionalLong;

/** The scheduler side of the fake vendor: capacity discovery, a count with optional memory and cores. */
final class FakeBackend extends CapacityBackend {

    FakeBackend(FakeConfig config) {
        super(
                FakeKeys.VENDOR_KEYS,
                new ResourceNames(config.resourceCountName(), FakeKeys.MEMORY, Optional.empty(), FakeKeys.CORES),
                new NodeDiscovery.CapacityLayout(
                        FakeKeys.CORES,
                        FakeKeys.MEMORY,
                        FakeKeys.CORES_PER_XPU,
                        FakeKeys.MEMORY_UNIT_MIB,
                        FakeKeys.ID_INFIX,
                        FakeKeys.VENDOR),
                c -> requestOf(c, config.resourceCountName()),
                new Rules());
    }

    /** A positive count asks; memory in units of 1 GiB (none: the whole card's), cores default to a whole card. */
    static ContainerRequest requestOf(Container container, String countName) {
        OptionalLong count = ContainerResources.read(container, countName).int64();
        if (count.isEmpty() || count.getAsLong() <= 0 || count.getAsLong() > Integer.MAX_VALUE) {
            return ContainerRequest.none(FakeKeys.VENDOR);
        }
        long units = ContainerResources.read(container, FakeKeys.MEMORY).int64().orElse(0);
        if (units < 0 || units > Integer.MAX_VALUE / FakeKeys.MEMORY_UNIT_MIB) {
            return ContainerRequest.none(FakeKeys.VENDOR);
        }
        int memory = (int) units * FakeKeys.MEMORY_UNIT_MIB;
        int cores =
                ContainerResources.read(container, FakeKeys.CORES).clampedInt().orElse(FakeKeys.CORES_PER_XPU);
        return new ContainerRequest((int) count.getAsLong(), FakeKeys.VENDOR, memory, memory == 0 ? 100 : 0, cores);
    }

    private static final class Rules implements FitRules {
        @Override
        public boolean typeMatches(DeviceInfo device, ContainerRequest request, FitContext context) {
            return FakeKeys.VENDOR.equals(request.type());
        }

        @Override
        public DeviceSelector uuidSelector() {
            return FakeKeys.UUID_SELECTOR;
        }
    }
}
