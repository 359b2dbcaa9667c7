package io.hami.scheduler.usage;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What a pod's allocated annotations hold on its node: the usage index's unit of change. */
public sealed interface PodUsage {

    /**
     * The pod holds {@code grants} (device UUID to totals, all vendors) on {@code node}; {@code byVendor} sums
     * them per vendor keyword, for the namespace's quota.
     */
    record Counted(String node, Map<String, Grant> grants, Map<String, Grant> byVendor) implements PodUsage {
        public Counted {
            grants = Map.copyOf(grants);
            byVendor = Map.copyOf(byVendor);
        }

        /** Without per-vendor sums: counts on its node, not against a quota. */
        public Counted(String node, Map<String, Grant> grants) {
            this(node, grants, Map.of());
        }
    }

    /** The pod holds nothing: no allocation, finished, or not placed. */
    record NotCounted() implements PodUsage {
    }

    /**
     * The pod's allocation on {@code node} cannot be read. The node fails closed: what the pod holds is
     * unknown, so nothing more is placed there until the annotation is fixed or the pod goes away.
     */
    record Undecodable(String node, String reason) implements PodUsage {
    }

    static PodUsage of(Pod pod, DeviceBackends backends) {
        var meta = pod.getMetadata();
        Map<String, String> annotations = meta == null || meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return new NotCounted();
        }
        // A bound pod counts on its node; an unbound one only while a bind for it is in flight.
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null || node.isEmpty()) {
            boolean binding = ProtocolKeys.PHASE_ALLOCATING.equals(annotations.get(ProtocolKeys.BIND_PHASE));
            node = binding ? annotations.get(ProtocolKeys.VGPU_NODE) : null;
        }
        if (node == null || node.isEmpty()) {
            return new NotCounted();
        }
        int initCount = pod.getSpec() == null || pod.getSpec().getInitContainers() == null ? 0 : pod.getSpec().getInitContainers().size();
        boolean initDone = initCount > 0 && initContainersSucceeded(pod, initCount);
        var grants = new HashMap<String, Grant>();
        var byVendor = new HashMap<String, Grant>();
        for (DeviceBackend b : backends.all()) {
            String value = annotations.get(b.keys().allocatedKey());
            if (value == null) {
                continue;
            }
            try {
                Collapse.of(PodDevicesCodec.decode(value), initCount, initDone).forEach((uuid, g) -> {
                    grants.merge(uuid, g, Grant::plus);
                    byVendor.merge(b.vendor(), g, Grant::plus);
                });
            } catch (AnnotationFormatException e) {
                return new Undecodable(node, "pod " + meta.getNamespace() + "/" + meta.getName() + " has an undecodable "
                        + b.keys().allocatedKey() + ": " + e.getMessage());
            }
        }
        return grants.isEmpty() ? new NotCounted() : new Counted(node, grants, byVendor);
    }

    private static boolean initContainersSucceeded(Pod pod, int initCount) {
        List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getInitContainerStatuses();
        if (statuses == null || statuses.size() < initCount) {
            return false;
        }
        return statuses.stream().allMatch(s -> s.getState() != null && s.getState().getTerminated() != null
                && Integer.valueOf(0).equals(s.getState().getTerminated().getExitCode()));
    }
}
