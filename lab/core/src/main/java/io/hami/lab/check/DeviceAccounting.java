package io.hami.lab.check;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How much of each device the pods' allocated annotations hold, computed here from the annotations themselves and
 * not with the scheduler's index, so the check is independent of what it checks. Every pod that is not finished
 * and is bound (or being bound) counts. Init containers run one at a time before the app containers, so a pod holds
 * on each device the larger of its init containers' peak and its app containers' sum (tasks: one per container),
 * and only the app sum once
 * its init containers have completed.
 */
public final class DeviceAccounting {
    private DeviceAccounting() {}

    /** A device a pod holds part of. */
    public record DeviceKey(String node, String id) implements Comparable<DeviceKey> {
        @Override
        public int compareTo(DeviceKey o) {
            int c = node.compareTo(o.node);
            return c != 0 ? c : id.compareTo(o.id);
        }
    }

    /**
     * What the counted pods hold of one device: tasks (containers running on it at once, which the split count
     * bounds), memory (MiB) and cores.
     */
    public record Usage(int tasks, long memory, long cores) {
        Usage plus(Usage o) {
            return new Usage(tasks + o.tasks, memory + o.memory, cores + o.cores);
        }
    }

    /** The usage per device, and the pods whose annotations could not be read. */
    public record Result(Map<DeviceKey, Usage> usage, List<String> unreadable) {}

    public static Result of(Collection<Pod> pods, DeviceBackends backends) {
        var usage = new TreeMap<DeviceKey, Usage>();
        var unreadable = new ArrayList<String>();
        for (Pod pod : pods) {
            String node = nodeOf(pod);
            if (node == null) {
                continue;
            }
            Map<String, String> annotations = pod.getMetadata().getAnnotations();
            int initCount = pod.getSpec().getInitContainers().size();
            boolean initDone = initCount > 0 && initDone(pod, initCount);
            for (DeviceBackend b : backends.all()) {
                String value = annotations.get(b.keys().allocatedKey());
                if (value == null) {
                    continue;
                }
                try {
                    holding(PodDevicesCodec.decode(value), initCount, initDone)
                            .forEach((id, u) -> usage.merge(new DeviceKey(node, id), u, Usage::plus));
                } catch (AnnotationFormatException e) {
                    unreadable.add(
                            pod.getMetadata().getName() + ": " + b.keys().allocatedKey() + ": " + e.getMessage());
                }
            }
        }
        return new Result(usage, unreadable);
    }

    /** The node a pod's devices count on, or null when it holds none. */
    static String nodeOf(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
            return null;
        }
        String node = pod.getSpec().getNodeName();
        if (node != null && !node.isEmpty()) {
            return node;
        }
        Map<String, String> a = pod.getMetadata().getAnnotations();
        return a != null && ProtocolKeys.PHASE_ALLOCATING.equals(a.get(ProtocolKeys.BIND_PHASE))
                ? a.get(ProtocolKeys.VGPU_NODE)
                : null;
    }

    private static Map<String, Usage> holding(PodDevices devices, int initCount, boolean initDone) {
        var initPeak = new HashMap<String, Usage>();
        var appSum = new HashMap<String, Usage>();
        List<List<ContainerDevice>> containers = devices.containers();
        for (int i = 0; i < containers.size(); i++) {
            boolean init = i < initCount;
            if (init && initDone) {
                continue;
            }
            for (ContainerDevice d : containers.get(i)) {
                var u = new Usage(1, d.usedmem(), d.usedcores());
                if (init) {
                    initPeak.merge(
                            d.uuid(),
                            u,
                            (a, b) -> new Usage(1, Math.max(a.memory(), b.memory()), Math.max(a.cores(), b.cores())));
                } else {
                    appSum.merge(d.uuid(), u, Usage::plus);
                }
            }
        }
        var out = new HashMap<String, Usage>(appSum);
        initPeak.forEach((id, peak) -> out.merge(
                id,
                peak,
                (app, init) -> new Usage(
                        Math.max(app.tasks(), init.tasks()),
                        Math.max(app.memory(), init.memory()),
                        Math.max(app.cores(), init.cores()))));
        return out;
    }

    private static boolean initDone(Pod pod, int initCount) {
        List<ContainerStatus> statuses =
                pod.getStatus() == null ? List.of() : pod.getStatus().getInitContainerStatuses();
        return statuses.size() >= initCount
                && statuses.stream()
                        .allMatch(s -> s.getState() != null
                                && s.getState().getTerminated() != null
                                && Integer.valueOf(0)
                                        .equals(s.getState().getTerminated().getExitCode()));
    }
}
