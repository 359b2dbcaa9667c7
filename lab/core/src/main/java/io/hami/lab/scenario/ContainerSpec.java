package io.hami.lab.scenario;

import java.util.Map;

/**
 * One container of a workload's pods.
 *
 * @param name      container name, unique in the pod
 * @param resources resource limits, for example {@code nvidia.com/gpumem: 4000}
 * @param env       environment the container spec carries (for example {@code CUDA_DISABLE_CONTROL})
 * @param usage     what the container does on its GPUs while it runs; null: nothing (no workload process)
 */
public record ContainerSpec(String name, Map<String, String> resources, Map<String, String> env, UsageProfile usage) {
    public ContainerSpec(String name, Map<String, String> resources, Map<String, String> env) {
        this(name, resources, env, null);
    }

    public ContainerSpec {
        resources = resources == null ? Map.of() : Map.copyOf(resources);
        env = env == null ? Map.of() : Map.copyOf(env);
    }
}
