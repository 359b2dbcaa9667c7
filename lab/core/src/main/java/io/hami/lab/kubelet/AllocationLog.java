package io.hami.lab.kubelet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Every container allocation the simulated kubelets made, by pod UID. Thread-safe. */
public final class AllocationLog {
    private final Map<String, List<ContainerAllocation>> byPod = new ConcurrentHashMap<>();

    public void add(ContainerAllocation allocation) {
        byPod.computeIfAbsent(
                        allocation.container().podUid(),
                        uid -> java.util.Collections.synchronizedList(new ArrayList<>()))
                .add(allocation);
    }

    public List<ContainerAllocation> of(String podUid) {
        List<ContainerAllocation> list = byPod.get(podUid);
        if (list == null) {
            return List.of();
        }
        synchronized (list) {
            return List.copyOf(list);
        }
    }
}
