package io.hami.monitor;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How one node's monitor runs.
 *
 * @param hookPath HAMi-core's host folder ({@code HOOK_PATH}, {@code /usr/local/vgpu}); regions lie under
 *     {@code containers/}
 * @param node this node's name ({@code NODE_NAME})
 * @param resyncInterval how long a folder of an unknown pod is kept ({@code HAMI_RESYNC_INTERVAL}, 5 min)
 * @param scanInterval time between scans (upstream: 5 s)
 * @param metricsAddress where {@code /metrics} is served (upstream: {@code :9394})
 * @param legacyMetrics also serve upstream's legacy metric names
 * @param nvmlLibrary the NVML library file, or null for the dynamic linker's
 * @param version the {@code hami_build_info} version
 */
public record MonitorSettings(
        Path hookPath,
        String node,
        Duration resyncInterval,
        Duration scanInterval,
        InetSocketAddress metricsAddress,
        boolean legacyMetrics,
        Path nvmlLibrary,
        String version) {
    public static final Path DEFAULT_HOOK_PATH = Path.of("/usr/local/vgpu");
    public static final Duration DEFAULT_RESYNC = Duration.ofMinutes(5);
    public static final Duration DEFAULT_SCAN = Duration.ofSeconds(5);
    public static final int DEFAULT_PORT = 9394;

    public MonitorSettings {
        if (node == null || node.isBlank()) {
            throw new IllegalArgumentException("the node name is missing: set NODE_NAME or --node-name");
        }
    }
}
