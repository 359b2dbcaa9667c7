package io.hami.protocol.fit;

import io.hami.protocol.device.ContainerDevice;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything besides the devices and the request that a vendor's fit rule reads.
 *
 * @param podAnnotations  selectors ({@code nvidia.com/use-gputype}, {@code .../use-gpuuuid}, numa-bind, vgpu-mode)
 * @param nodeAnnotations for example {@code hami.io/device-cordon}
 * @param gpuPolicy       the device policy in force for the pod ({@code binpack}, {@code spread}, {@code mutex}, ...)
 * @param podGrantsSoFar  devices of this vendor already granted to earlier containers of the same pod
 * @param quota           what this container may take of this vendor under its namespace's quota (the caller has
 *                        taken off what the pod's other containers hold alongside it)
 */
public record FitContext(
        Map<String, String> podAnnotations,
        Map<String, String> nodeAnnotations,
        String gpuPolicy,
        List<ContainerDevice> podGrantsSoFar,
        QuotaRoom quota) {
    public FitContext {
        podAnnotations = Map.copyOf(Objects.requireNonNull(podAnnotations));
        nodeAnnotations = Map.copyOf(Objects.requireNonNull(nodeAnnotations));
        Objects.requireNonNull(gpuPolicy);
        podGrantsSoFar = List.copyOf(podGrantsSoFar);
        Objects.requireNonNull(quota);
    }

    /** Without a quota. */
    public FitContext(
            Map<String, String> podAnnotations,
            Map<String, String> nodeAnnotations,
            String gpuPolicy,
            List<ContainerDevice> podGrantsSoFar) {
        this(podAnnotations, nodeAnnotations, gpuPolicy, podGrantsSoFar, QuotaRoom.UNLIMITED);
    }

    public static FitContext of(Map<String, String> podAnnotations) {
        return new FitContext(podAnnotations, Map.of(), "spread", List.of());
    }
}
