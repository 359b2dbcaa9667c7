package io.hami.plugin.allocate;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Entry {@code i} of a pod device string belongs to container {@code i}: init containers first, then app containers
 * (design D2, docs/design.md#d2).
 */
final class PodContainers {
    private PodContainers() {}

    static Optional<Container> at(Pod pod, int entry) {
        List<Container> all = new ArrayList<>();
        if (pod.getSpec() != null) {
            if (pod.getSpec().getInitContainers() != null) {
                all.addAll(pod.getSpec().getInitContainers());
            }
            if (pod.getSpec().getContainers() != null) {
                all.addAll(pod.getSpec().getContainers());
            }
        }
        return entry >= 0 && entry < all.size() ? Optional.of(all.get(entry)) : Optional.empty();
    }

    /** The literal values of the container's environment (values from references are not known here). */
    static Map<String, String> env(Container container) {
        Map<String, String> env = new LinkedHashMap<>();
        if (container.getEnv() != null) {
            for (EnvVar v : container.getEnv()) {
                if (v.getName() != null && v.getValue() != null) {
                    env.put(v.getName(), v.getValue());
                }
            }
        }
        return env;
    }
}
