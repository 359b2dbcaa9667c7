package io.hami.fake;

import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.ContainerGrant;
import io.hami.plugin.spi.HealthSource;
import io.hami.plugin.spi.InventoryPublisher;
import io.hami.plugin.spi.KubeletResource;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.spi.DeviceBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The node side of the fake vendor. Its "library" is a text file, one card per line ({@code <uuid> <memory MiB>}),
 * so it needs no C. Capacity is its inventory, like Cambricon: the count resource serves the decision, the core
 * and memory resources only advertise capacity. A container gets its cards in environment variables.
 */
final class FakePlugin implements VendorPlugin {
    static final String INVENTORY = "xpus.txt";

    private final DeviceBackend backend;
    private final List<PhysicalDevice> devices;
    private final FakeConfig config;

    FakePlugin(DeviceBackend backend, Path inventory, String node, FakeConfig config) {
        this.backend = backend;
        this.config = config;
        this.devices = read(inventory, node);
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
        return List.of(
                new KubeletResource(
                        config.resourceCountName(),
                        true,
                        KubeletResource.named("xpu", 0, d -> config.tasksPerXpu()),
                        false),
                new KubeletResource(
                        FakeKeys.CORES, false, KubeletResource.named("core", 0, d -> FakeKeys.CORES_PER_XPU), false),
                new KubeletResource(
                        FakeKeys.MEMORY,
                        false,
                        KubeletResource.named("memory", 0, d -> (int) (d.memoryMiB() / FakeKeys.MEMORY_UNIT_MIB)),
                        false));
    }

    /** The fake cards never fail. */
    @Override
    public HealthSource openHealth() {
        return new HealthSource() {
            @Override
            public Set<Integer> unhealthy(Duration wait) {
                try {
                    Thread.sleep(wait);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return Set.of();
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public Optional<InventoryPublisher> publisher() {
        return Optional.empty();
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
