package io.hami.scheduler.fit;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a pod asks of each vendor, container by container: init containers first, then app containers,
 * so entry {@code i} lines up with entry {@code i} of the pod device strings (design D2, docs/design.md#d2).
 *
 * @param containers per container, the non-empty requests keyed by vendor keyword (sorted)
 * @param initCount  how many of the entries are init containers
 * @param refusal    why the pod cannot be placed anywhere (a quantity no vendor can represent), or null. Such a
 *                   pod is not "no request": it fits no node, so it is never bound without a grant.
 */
public record PodRequest(List<Map<String, ContainerRequest>> containers, int initCount, String refusal) {
    public PodRequest {
        containers = containers.stream()
                .map(m -> (Map<String, ContainerRequest>) new TreeMap<>(m))
                .toList();
    }

    public static PodRequest of(Pod pod, DeviceBackends backends) {
        var spec = pod.getSpec();
        List<Container> init = spec == null || spec.getInitContainers() == null ? List.of() : spec.getInitContainers();
        List<Container> app = spec == null || spec.getContainers() == null ? List.of() : spec.getContainers();
        var containers = new ArrayList<Map<String, ContainerRequest>>();
        String refusal = null;
        for (Container c : init) {
            containers.add(requests(c, backends));
            refusal = refusal != null ? refusal : unrepresentable(c, backends);
        }
        for (Container c : app) {
            containers.add(requests(c, backends));
            refusal = refusal != null ? refusal : unrepresentable(c, backends);
        }
        return new PodRequest(containers, init.size(), refusal);
    }

    private static String unrepresentable(Container c, DeviceBackends backends) {
        for (DeviceBackend b : backends.all()) {
            var why = b.unrepresentable(c);
            if (why.isPresent()) {
                return why.get();
            }
        }
        return null;
    }

    private static Map<String, ContainerRequest> requests(Container c, DeviceBackends backends) {
        var m = new TreeMap<String, ContainerRequest>();
        for (DeviceBackend b : backends.all()) {
            ContainerRequest r = b.request(c);
            if (!r.isEmpty()) {
                m.put(b.vendor(), r);
            }
        }
        return m;
    }

    /** True when no container asks for a managed device and nothing was refused. */
    public boolean isEmpty() {
        return refusal == null && containers.stream().allMatch(Map::isEmpty);
    }

    /** The vendors asked for, in byte order of their keyword. */
    public TreeSet<String> vendors() {
        var s = new TreeSet<String>();
        containers.forEach(m -> s.addAll(m.keySet()));
        return s;
    }
}
