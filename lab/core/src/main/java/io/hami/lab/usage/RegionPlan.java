package io.hami.lab.usage;

import io.hami.lab.kubelet.ContainerAllocation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where and with which limits HAMi-core keeps a container's shared region, read from what the NVIDIA plugin answered
 * in Allocate (as {@code libvgpu.so} reads its environment inside the container) and the container's own env.
 *
 * @param region   the region file's host path: {@code CUDA_DEVICE_MEMORY_SHARED_CACHE} through the container's mounts
 * @param devices  the granted GPUs in order, with their limits
 * @param priority {@code CUDA_TASK_PRIORITY} (HAMi-core's default, 1, when the container has none)
 */
public record RegionPlan(Path region, List<Device> devices, int priority) {
    static final String CACHE = "CUDA_DEVICE_MEMORY_SHARED_CACHE";
    static final String VISIBLE = "NVIDIA_VISIBLE_DEVICES";
    static final String MEMORY_LIMIT = "CUDA_DEVICE_MEMORY_LIMIT_";
    static final String SM_LIMIT = "CUDA_DEVICE_SM_LIMIT";
    static final String PRIORITY = "CUDA_TASK_PRIORITY";

    public RegionPlan {
        devices = List.copyOf(devices);
    }

    /** @param smLimit percent of the SMs; 0 when the container has no limit (HAMi-core reads it as 100) */
    public record Device(String uuid, long limitMib, int smLimit) {}

    /** The plan, or an exception whose message says which variable is missing or malformed. */
    public static RegionPlan of(ContainerAllocation.Answer answer, Map<String, String> containerEnv) {
        Map<String, String> env = answer.env();
        String cache = env.get(CACHE);
        if (cache == null) {
            throw new IllegalArgumentException("the plugin's answer has no " + CACHE);
        }
        Path region = hostPath(cache, answer.mounts());
        String visible = env.getOrDefault(VISIBLE, "");
        List<String> uuids = visible.isBlank() ? List.of() : List.of(visible.split(","));
        if (uuids.isEmpty()) {
            throw new IllegalArgumentException("the plugin's answer has no " + VISIBLE);
        }
        int sm = parseInt(env.getOrDefault(SM_LIMIT, "0"), SM_LIMIT);
        var devices = new ArrayList<Device>();
        for (int i = 0; i < uuids.size(); i++) {
            String limit = env.get(MEMORY_LIMIT + i);
            if (limit == null) {
                throw new IllegalArgumentException("the plugin's answer has " + uuids.size() + " GPUs in " + VISIBLE
                        + " but no " + MEMORY_LIMIT + i);
            }
            devices.add(new Device(uuids.get(i).strip(), mib(limit, MEMORY_LIMIT + i), sm));
        }
        String priority = containerEnv.getOrDefault(PRIORITY, env.getOrDefault(PRIORITY, "1"));
        return new RegionPlan(region, devices, parseInt(priority, PRIORITY) == 0 ? 0 : 1);
    }

    /** The host path of {@code containerPath}: under the mount with the longest container path that holds it. */
    static Path hostPath(String containerPath, List<ContainerAllocation.Mount> mounts) {
        ContainerAllocation.Mount best = null;
        for (ContainerAllocation.Mount m : mounts) {
            String dir = m.containerPath().endsWith("/") ? m.containerPath() : m.containerPath() + "/";
            if (containerPath.startsWith(dir)
                    && (best == null
                            || m.containerPath().length() > best.containerPath().length())) {
                best = m;
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("no mount of the plugin's answer holds " + containerPath);
        }
        String rest = containerPath.substring(best.containerPath().length()).replaceFirst("^/+", "");
        return Path.of(best.hostPath()).resolve(rest);
    }

    /** HAMi-core's limit syntax as the plugin writes it: {@code 4000m}, or {@code 4g}. */
    static long mib(String value, String name) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        long factor = v.endsWith("g") ? 1024 : 1;
        if (!v.endsWith("m") && !v.endsWith("g")) {
            throw new IllegalArgumentException(name + "=" + value + " is not MiB (4000m) or GiB (4g)");
        }
        try {
            return Long.parseLong(v.substring(0, v.length() - 1)) * factor;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + value + " is not MiB (4000m) or GiB (4g)", e);
        }
    }

    private static int parseInt(String value, String name) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + "=" + value + " is not a whole number", e);
        }
    }
}
