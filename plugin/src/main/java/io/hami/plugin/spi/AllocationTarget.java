package io.hami.plugin.spi;

import io.hami.protocol.device.ContainerDevice;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One container's share of the scheduler's decision, as Allocate serves it.
 *
 * @param podNamespace  the pod's namespace
 * @param podName       the pod's name
 * @param podUid        the pod's UID (host directories are named after it)
 * @param containerName the container the entry belongs to (init containers first, then app containers)
 * @param containerEnv  the container's literal environment from its spec (HAMi-core reads CUDA_DISABLE_CONTROL there)
 * @param granted       the devices, as the scheduler wrote them
 * @param cards         the card behind each granted device, in the same order
 */
public record AllocationTarget(
        String podNamespace,
        String podName,
        String podUid,
        String containerName,
        Map<String, String> containerEnv,
        List<ContainerDevice> granted,
        List<PhysicalDevice> cards) {
    public AllocationTarget {
        Objects.requireNonNull(podNamespace, "podNamespace");
        Objects.requireNonNull(podName, "podName");
        Objects.requireNonNull(podUid, "podUid");
        Objects.requireNonNull(containerName, "containerName");
        containerEnv = Map.copyOf(containerEnv);
        granted = List.copyOf(granted);
        cards = List.copyOf(cards);
        if (granted.size() != cards.size()) {
            throw new IllegalArgumentException("one card per granted device");
        }
    }
}
