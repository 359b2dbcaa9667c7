package io.hami.node.nvidia;

import io.hami.plugin.config.HostPaths;
import io.hami.plugin.spi.AllocationException;
import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.ContainerGrant;
import io.hami.plugin.vendor.HostFiles;
import io.hami.protocol.device.ContainerDevice;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * What HAMi-core needs in an NVIDIA container (docs/upstream.md#nvidia-allocate, design D7 in docs/design.md#d7): the visible GPUs, a
 * memory limit per device, the SM limit, a shared cache file, and the mounts that preload {@code libvgpu.so}.
 * Container-side paths are HAMi-core's fixed ones; host-side paths come from {@link HostPaths}. The
 * container's cache folder is created afresh and the lock folder made, both world-writable (docs/upstream.md#nvidia-host-folders).
 */
final class HamiCoreGrant {
    /** HAMi-core's folder inside the container ({@code HOOK_PATH=/usr/local} + {@code /vgpu}). */
    static final String CONTAINER_VGPU = "/usr/local/vgpu";

    static final String CONTAINER_LOCK = "/tmp/vgpulock";
    static final String PRELOAD = "/etc/ld.so.preload";
    /** Go's {@code strconv.ParseBool} true spellings, for {@code CUDA_DISABLE_CONTROL}. */
    private static final Set<String> TRUE = Set.of("1", "t", "T", "TRUE", "true", "True");

    private final HostPaths paths;
    private final double memoryScaling;
    private final String libCudaLogLevel;
    private final boolean disableCoreLimit;
    private final Supplier<UUID> cacheNames;

    HamiCoreGrant(
            HostPaths paths,
            double memoryScaling,
            String libCudaLogLevel,
            boolean disableCoreLimit,
            Supplier<UUID> cacheNames) {
        this.paths = paths;
        this.memoryScaling = memoryScaling;
        this.libCudaLogLevel = libCudaLogLevel;
        this.disableCoreLimit = disableCoreLimit;
        this.cacheNames = cacheNames;
    }

    ContainerGrant of(AllocationTarget target) throws AllocationException {
        List<ContainerDevice> granted = target.granted();
        Map<String, String> env = new LinkedHashMap<>();
        env.put(
                "NVIDIA_VISIBLE_DEVICES",
                String.join(
                        ",",
                        granted.stream().map(ContainerDevice::uuid).distinct().toList()));
        for (int i = 0; i < granted.size(); i++) {
            env.put("CUDA_DEVICE_MEMORY_LIMIT_" + i, granted.get(i).usedmem() + "m");
        }
        env.put("CUDA_DEVICE_SM_LIMIT", Integer.toString(granted.getFirst().usedcores()));
        env.put("CUDA_DEVICE_MEMORY_SHARED_CACHE", CONTAINER_VGPU + "/" + cacheNames.get() + ".cache");
        if (memoryScaling > 1) {
            env.put("CUDA_OVERSUBSCRIBE", "true");
        }
        if (!libCudaLogLevel.isEmpty()) {
            env.put("LIBCUDA_LOG_LEVEL", libCudaLogLevel);
        }
        if (disableCoreLimit) {
            env.put("GPU_CORE_UTILIZATION_POLICY", "disable");
        }

        Path vgpu = paths.vgpuDir();
        Path cache = vgpu.resolve("containers").resolve(target.podUid() + "_" + target.containerName());
        try {
            HostFiles.deleteTree(cache); // a fresh cache: a restarted container must not inherit old usage
            HostFiles.worldWritableDir(cache);
            HostFiles.worldWritableDir(paths.lockDir());
        } catch (IOException e) {
            throw new AllocationException(
                    "cannot prepare HAMi-core folders " + cache + " and " + paths.lockDir() + ": " + e.getMessage(), e);
        }
        List<ContainerGrant.Mount> mounts = new ArrayList<>();
        mounts.add(new ContainerGrant.Mount(
                CONTAINER_VGPU + "/libvgpu.so", vgpu.resolve("libvgpu.so").toString(), true));
        mounts.add(new ContainerGrant.Mount(CONTAINER_VGPU, cache.toString(), false));
        mounts.add(new ContainerGrant.Mount(CONTAINER_LOCK, paths.lockDir().toString(), false));
        if (!TRUE.contains(target.containerEnv().getOrDefault("CUDA_DISABLE_CONTROL", ""))) {
            mounts.add(new ContainerGrant.Mount(
                    PRELOAD, vgpu.resolve("ld.so.preload").toString(), true));
        }
        Path license = vgpu.resolve("license");
        if (Files.exists(license)) {
            mounts.add(new ContainerGrant.Mount("/tmp/license", license.toString(), true));
            mounts.add(new ContainerGrant.Mount(
                    "/usr/bin/vgpuvalidator", vgpu.resolve("vgpuvalidator").toString(), true));
        }
        return new ContainerGrant(env, mounts, List.of(), Map.of());
    }
}
