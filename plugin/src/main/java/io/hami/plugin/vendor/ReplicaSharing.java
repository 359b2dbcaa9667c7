package io.hami.plugin.vendor;

import io.hami.plugin.config.Sharing;
import io.hami.plugin.spi.KubeletResource;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.protocol.device.DeviceInfo;
import java.util.List;
import java.util.Set;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;

/**
 * How a vendor that publishes a register annotation (HAMi-core isolation: NVIDIA, HCU) shares a card:
 * {@code splitCount} replicas {@code <uuid>-<n>} on its count resource, memory and cores scaled in what it
 * publishes.
 */
public record ReplicaSharing(int splitCount, double memoryScaling, double coreScaling) {
    /** Operating mode written in the register annotation: HAMi-core isolation. */
    public static final String MODE = "hami-core";

    /** {@code sharing} over the vendor's defaults. */
    public static ReplicaSharing of(Sharing sharing, int splitCount, double memoryScaling, double coreScaling) {
        return new ReplicaSharing(
                sharing.splitCount(splitCount), sharing.memoryScaling(memoryScaling), sharing.coreScaling(coreScaling));
    }

    /** The count resource {@code name}: {@code splitCount} replicas per card. */
    public KubeletResource resource(String name, boolean numaTopology) {
        return new KubeletResource(name, true, KubeletResource.numbered(splitCount), numaTopology);
    }

    /**
     * One device per card the plugin serves, read from the library afresh (docs/upstream.md#plugin-register-loop):
     * memory in MiB times the memory scaling, cores 100 times the core scaling (both truncated), the type
     * {@code type} of the model, NUMA 0 where the library cannot tell. A card the library cannot read is published
     * as at start and unhealthy (upstream's scan fails whole, hiding the loss from the scheduler).
     *
     * @param known     the cards as enumerated at start
     * @param reread    the card at an index, read from the library now; throws when the library cannot
     * @param type      the published type of a model name
     * @param unhealthy indexes the health source reports unhealthy
     */
    public List<DeviceInfo> rescan(
            List<PhysicalDevice> known,
            IntFunction<PhysicalDevice> reread,
            UnaryOperator<String> type,
            Set<Integer> unhealthy) {
        return known.stream()
                .map(k -> {
                    PhysicalDevice d = k;
                    boolean healthy = !unhealthy.contains(k.index());
                    try {
                        d = reread.apply(k.index());
                    } catch (RuntimeException e) {
                        healthy = false;
                    }
                    return new DeviceInfo(
                            d.uuid(),
                            d.index(),
                            splitCount,
                            (int) (d.memoryMiB() * memoryScaling),
                            (int) (coreScaling * 100),
                            type.apply(d.model()),
                            Math.max(d.numaNode(), 0),
                            MODE,
                            healthy);
                })
                .toList();
    }
}
