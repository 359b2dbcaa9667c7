package io.hami.fake;

import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.ContainerGrant;
import io.hami.plugin.spi.HealthSource;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.vendor.Capacity;
import io.hami.plugin.vendor.CardPlugin;
import io.hami.plugin.vendor.PollingHealth;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.spi.DeviceBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The node side of the fake vendor. Its "library" is a text file, one card per line ({@code <uuid> <memory MiB>}),
 * so it needs no C. Capacity is its inventory, like Cambricon: the count resource serves the decision, the core
 * and memory resources only advertise capacity. A container gets its cards in environment variables.
 */
final class FakePlugin extends CardPlugin<PhysicalDevice> {
    static final String INVENTORY = "xpus.txt";

    FakePlugin(DeviceBackend backend, Path inventory, String node, FakeConfig config) {
        super(
                backend,
                read(inventory, node),
                d -> d,
                List.of(
                        Capacity.decision(config.resourceCountName(), "xpu", config.tasksPerXpu()),
                        Capacity.advertised(FakeKeys.CORES, "core", 0, d -> FakeKeys.CORES_PER_XPU),
                        Capacity.advertised(
                                FakeKeys.MEMORY, "memory", 0, Capacity.memoryUnits(FakeKeys.MEMORY_UNIT_MIB))));
    }

    private static List<PhysicalDevice> read(Path inventory, String node) {
        try {
            List<PhysicalDevice> cards = new ArrayList<>();
            for (String line : Files.readAllLines(inventory)) {
                if (line.isBlank()) {
                    continue;
                }
                String[] f = line.trim().split("\\s+");
                int i = cards.size();
                cards.add(new PhysicalDevice(
                        i, f[0], node + "-" + FakeKeys.ID_INFIX + "-" + i, "FAKE-X1", Long.parseLong(f[1]), -1));
            }
            return List.copyOf(cards);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the fake inventory " + inventory, e);
        }
    }

    /** The fake cards never fail. */
    @Override
    public HealthSource openHealth() {
        return new PollingHealth(devices().size(), i -> true);
    }

    @Override
    public ContainerGrant allocate(AllocationTarget target) {
        Map<String, String> env = new HashMap<>();
        env.put(
                "FAKE_VISIBLE_XPUS",
                target.cards().stream().map(PhysicalDevice::uuid).collect(Collectors.joining(",")));
        for (int i = 0; i < target.granted().size(); i++) {
            ContainerDevice d = target.granted().get(i);
            env.put("FAKE_XPU_" + i + "_MEMORY_MIB", Integer.toString(d.usedmem()));
        }
        return new ContainerGrant(env, List.of(), List.of(), Map.of());
    }

    @Override
    public void close() {}
}
