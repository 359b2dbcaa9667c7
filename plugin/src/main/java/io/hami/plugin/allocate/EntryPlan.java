package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.hami.plugin.kubeletapi.ContainerAllocateRequest;
import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one Allocate takes from a pod: for each container request, in order, the vendor's next non-empty entry,
 * checked against the request and resolved to this node's cards; and the to-allocate value with those entries
 * emptied.
 *
 * @param targets  one per container request
 * @param newValue the to-allocate value to write back
 */
record EntryPlan(List<AllocationTarget> targets, String newValue) {

    /** Why a pod's entries cannot serve the request; the pod is then marked failed. */
    static final class Unservable extends Exception {
        Unservable(String message) {
            super(message);
        }
    }

    static EntryPlan of(
            Pod pod,
            String vendor,
            String toAllocateKey,
            List<ContainerAllocateRequest> requests,
            Map<String, PhysicalDevice> cards)
            throws Unservable {
        String who = WaitingPods.name(pod);
        String value = WaitingPods.annotations(pod).get(toAllocateKey);
        if (value == null) {
            throw new Unservable("pod " + who + " has no " + toAllocateKey + " annotation");
        }
        PodDevices entries;
        try {
            entries = PodDevicesCodec.decode(value);
        } catch (AnnotationFormatException e) {
            throw new Unservable("pod " + who + ": " + toAllocateKey + " does not decode: " + e.getMessage());
        }
        List<AllocationTarget> targets = new ArrayList<>();
        for (ContainerAllocateRequest request : requests) {
            int entry = entries.firstNonEmpty();
            if (entry < 0) {
                throw new Unservable("pod " + who + " has no " + vendor + " entry left for container request "
                        + targets.size() + " of this Allocate");
            }
            Container container = PodContainers.at(pod, entry)
                    .orElseThrow(() -> new Unservable("pod " + who + ": " + vendor + " entry " + entry
                            + " has no container (the pod has fewer containers)"));
            List<ContainerDevice> granted = entries.containers().get(entry);
            if (granted.size() != request.getDevicesIdsCount()) {
                throw new Unservable("device number not matched: the kubelet asks for " + request.getDevicesIdsCount()
                        + " " + vendor + " devices, the scheduler granted " + granted.size() + " to container "
                        + container.getName() + " of pod " + who);
            }
            List<PhysicalDevice> resolved = new ArrayList<>();
            for (ContainerDevice d : granted) {
                PhysicalDevice card = cards.get(d.uuid());
                if (card == null) {
                    throw new Unservable("device " + d.uuid() + " granted to container " + container.getName()
                            + " of pod " + who + " is not a " + vendor + " card of this node (cards: "
                            + cards.keySet().stream().sorted().toList() + ")");
                }
                resolved.add(card);
            }
            targets.add(new AllocationTarget(
                    pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(),
                    pod.getMetadata().getUid() == null ? "" : pod.getMetadata().getUid(),
                    container.getName(),
                    PodContainers.env(container),
                    granted,
                    resolved));
            entries = entries.consume(entry);
        }
        return new EntryPlan(targets, PodDevicesCodec.encode(entries));
    }
}
