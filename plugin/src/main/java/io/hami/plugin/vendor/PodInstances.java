package io.hami.plugin.vendor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a vendor created for each pod (instance handles, virtual-device IDs), so it can be destroyed when the
 * pod ends; without it the card runs out of instances.
 */
public final class PodInstances<T> {
    private final Map<String, List<T>> byPod = new ConcurrentHashMap<>();

    public void add(String podUid, T instance) {
        byPod.compute(podUid, (uid, list) -> {
            var out = list == null ? new ArrayList<T>() : new ArrayList<>(list);
            out.add(instance);
            return List.copyOf(out);
        });
    }

    public Set<String> pods() {
        return Set.copyOf(byPod.keySet());
    }

    /** Removes and returns what pod {@code podUid} holds. */
    public List<T> take(String podUid) {
        List<T> taken = byPod.remove(podUid);
        return taken == null ? List.of() : taken;
    }
}
