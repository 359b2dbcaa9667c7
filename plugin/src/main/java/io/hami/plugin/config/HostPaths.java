package io.hami.plugin.config;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the plugin finds and creates things on the host. The plugin container mounts these at the same paths
 * as on the host (upstream's identity mounts), so a path the plugin sees is also the host path it returns to
 * the kubelet. Tests point them at temporary folders.
 *
 * @param devRoot  prefix of device nodes on the host: device {@code /dev/x} is {@code devRoot/dev/x}
 * @param vgpuDir  HAMi-core's folder ({@code libvgpu.so}, {@code ld.so.preload}, per-container caches)
 * @param lockDir  HAMi-core's lock folder, shared by every container on the node
 * @param vdevDir  where Hygon virtual-device configurations are written
 * @param hyhalDir Hygon's runtime libraries, mounted read-only into HCU containers when present
 * @param stateDir the plugin's own state, kept across restarts (what it created for which pod)
 */
public record HostPaths(Path devRoot, Path vgpuDir, Path lockDir, Path vdevDir, Path hyhalDir, Path stateDir) {

    public static final HostPaths DEFAULTS = new HostPaths(
            Path.of("/"),
            Path.of("/usr/local/vgpu"),
            Path.of("/tmp/vgpulock"),
            Path.of("/etc/vdev"),
            Path.of("/opt/hyhal"),
            Path.of("/var/lib/hami-java"));

    public HostPaths {
        Objects.requireNonNull(devRoot, "devRoot");
        Objects.requireNonNull(vgpuDir, "vgpuDir");
        Objects.requireNonNull(lockDir, "lockDir");
        Objects.requireNonNull(vdevDir, "vdevDir");
        Objects.requireNonNull(hyhalDir, "hyhalDir");
        Objects.requireNonNull(stateDir, "stateDir");
    }

    /** The host path of device node {@code containerPath} (an absolute path such as {@code /dev/kfd}). */
    public Path device(String containerPath) {
        return devRoot.resolve(containerPath.substring(1));
    }

    /** The defaults, each under {@code root} instead of {@code /}: for tests and the lab. */
    public static HostPaths under(Path root) {
        return new HostPaths(
                root,
                root.resolve("usr/local/vgpu"),
                root.resolve("tmp/vgpulock"),
                root.resolve("etc/vdev"),
                root.resolve("opt/hyhal"),
                root.resolve("var/lib/hami-java"));
    }
}
