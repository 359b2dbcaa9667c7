package io.hami.plugin.vendor;

import io.hami.plugin.config.HostPaths;
import io.hami.plugin.spi.ContainerGrant;
import java.nio.file.Files;

/** Device nodes at their usual container path, found on the host under {@link HostPaths#devRoot()}. */
public final class DeviceNodes {
    private final HostPaths paths;

    public DeviceNodes(HostPaths paths) {
        this.paths = paths;
    }

    /** {@code path} (e.g. {@code /dev/kfd}) with {@code permissions}. */
    public ContainerGrant.DeviceNode node(String path, String permissions) {
        return new ContainerGrant.DeviceNode(path, paths.device(path).toString(), permissions);
    }

    /** Whether {@code path} exists on the host, for nodes only some drivers create. */
    public boolean exists(String path) {
        return Files.exists(paths.device(path));
    }
}
