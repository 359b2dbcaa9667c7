package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.plugin.kubeletapi.ContainerPreferredAllocationRequest;
import io.hami.plugin.kubeletapi.ContainerPreferredAllocationResponse;
import io.hami.plugin.kubeletapi.PreferredAllocationRequest;
import io.hami.plugin.kubeletapi.PreferredAllocationResponse;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GetPreferredAllocation (docs/upstream.md#preferred-allocation): for container request {@code k}, replica IDs of
 * the cards the scheduler chose in the pod's {@code k}-th remaining entry, must-include IDs first. Never an
 * error: without a clear pod or a full choice the answer for that container is empty and the kubelet chooses.
 */
final class Preferences {
    private static final Logger LOG = LoggerFactory.getLogger(Preferences.class);

    private final PodLocator locator;
    private final String toAllocateKey;
    private final Map<String, PhysicalDevice> cardsBySchedulerId;
    private final Map<String, PhysicalDevice> replicaCards;

    Preferences(
            PodLocator locator,
            String toAllocateKey,
            Map<String, PhysicalDevice> cardsBySchedulerId,
            Map<String, PhysicalDevice> replicaCards) {
        this.locator = locator;
        this.toAllocateKey = toAllocateKey;
        this.cardsBySchedulerId = cardsBySchedulerId;
        this.replicaCards = replicaCards;
    }

    PreferredAllocationResponse prefer(PreferredAllocationRequest request) {
        List<List<ContainerDevice>> remaining = remainingEntries();
        PreferredAllocationResponse.Builder response = PreferredAllocationResponse.newBuilder();
        for (int k = 0; k < request.getContainerRequestsCount(); k++) {
            List<String> ids =
                    k < remaining.size() ? choose(remaining.get(k), request.getContainerRequests(k)) : List.of();
            response.addContainerResponses(
                    ContainerPreferredAllocationResponse.newBuilder().addAllDeviceIDs(ids));
        }
        return response.build();
    }

    private List<List<ContainerDevice>> remainingEntries() {
        try {
            if (!(locator.locate(false) instanceof Match.Serve(Pod pod))) {
                return List.of();
            }
            PodDevices entries =
                    PodDevicesCodec.decode(WaitingPods.annotations(pod).get(toAllocateKey));
            return entries.containers().stream().filter(c -> !c.isEmpty()).toList();
        } catch (KubernetesClientException | AnnotationFormatException e) {
            LOG.info("no preferred allocation: {}", e.getMessage());
            return List.of();
        }
    }

    private List<String> choose(List<ContainerDevice> entry, ContainerPreferredAllocationRequest request) {
        int size = request.getAllocationSize();
        if (size <= 0 || entry.size() < size) {
            return List.of();
        }
        List<String> mustLeft = new ArrayList<>(request.getMustIncludeDeviceIDsList());
        Set<String> taken = new HashSet<>(request.getMustIncludeDeviceIDsList());
        List<String> chosen = new ArrayList<>();
        for (ContainerDevice d : entry.subList(0, size)) {
            PhysicalDevice card = cardsBySchedulerId.get(d.uuid());
            if (card == null) {
                return List.of();
            }
            String id = mustLeft.stream()
                    .filter(m -> card.equals(replicaCards.get(m)))
                    .findFirst()
                    .orElse(null);
            if (id != null) {
                mustLeft.remove(id);
            } else {
                id = request.getAvailableDeviceIDsList().stream()
                        .filter(a -> card.equals(replicaCards.get(a)) && !taken.contains(a))
                        .findFirst()
                        .orElse(null);
                if (id == null) {
                    return List.of();
                }
                taken.add(id);
            }
            chosen.add(id);
        }
        return mustLeft.isEmpty() ? chosen : List.of();
    }
}
