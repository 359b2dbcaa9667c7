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
    }

    /** The pod holds nothing: no allocation, finished, or not placed. */
    record NotCounted() implements PodUsage {}

    /**
     * The pod's allocation on {@code node} cannot be read. The node fails closed: what the pod holds is
     * unknown, so nothing more is placed there until the annotation is fixed or the pod goes away.
     */
    record Undecodable(String node, String reason) implements PodUsage {}

    /**
     * The node {@code pod}'s allocation counts on, or null: a bound pod counts on its node until it finishes, an
     * unbound one only while a bind for it is in flight.
     */
    static String countedNode(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return null;
        }
        String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (node == null || node.isEmpty()) {
            Map<String, String> annotations = annotations(pod);
            boolean binding = ProtocolKeys.PHASE_ALLOCATING.equals(annotations.get(ProtocolKeys.BIND_PHASE));
            node = binding ? annotations.get(ProtocolKeys.VGPU_NODE) : null;
        }
        return node == null || node.isEmpty() ? null : node;
    }

    private static Map<String, String> annotations(Pod pod) {
        var meta = pod.getMetadata();
        return meta == null || meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
    }

    static PodUsage of(Pod pod, DeviceBackends backends) {
        var meta = pod.getMetadata();
        Map<String, String> annotations = annotations(pod);
        String node = countedNode(pod);
        if (node == null) {
            return new NotCounted();
        }
        int initCount = pod.getSpec() == null || pod.getSpec().getInitContainers() == null
                ? 0
                : pod.getSpec().getInitContainers().size();
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
                return new Undecodable(
                        node,
                        "pod " + meta.getNamespace() + "/" + meta.getName() + " has an undecodable "
                                + b.keys().allocatedKey() + ": " + e.getMessage());
            }
        }
        return grants.isEmpty() ? new NotCounted() : new Counted(node, grants, byVendor);
    }

    private static boolean initContainersSucceeded(Pod pod, int initCount) {
        List<ContainerStatus> statuses =
                pod.getStatus() == null ? null : pod.getStatus().getInitContainerStatuses();
        if (statuses == null || statuses.size() < initCount) {
            return false;
        }
        return statuses.stream()
                .allMatch(s -> s.getState() != null
                        && s.getState().getTerminated() != null
                        && Integer.valueOf(0)
                                .equals(s.getState().getTerminated().getExitCode()));
    }
}
