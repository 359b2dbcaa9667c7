package io.hami.plugin.spi;

import java.util.List;
import java.util.Map;

/**
 * What a vendor gives one container: environment, mounts, device nodes and runtime annotations. The server
 * turns it into the kubelet's {@code ContainerAllocateResponse}.
 */
public record ContainerGrant(
        Map<String, String> env, List<Mount> mounts, List<DeviceNode> devices, Map<String, String> annotations) {

    public static final ContainerGrant NOTHING = new ContainerGrant(Map.of(), List.of(), List.of(), Map.of());

    public ContainerGrant {
        env = Map.copyOf(env);
        mounts = List.copyOf(mounts);
        devices = List.copyOf(devices);
        annotations = Map.copyOf(annotations);
    }

    /** A host path mounted into the container. */
    public record Mount(String containerPath, String hostPath, boolean readOnly) {}

    /** A device node; {@code permissions} is any of {@code r}, {@code w}, {@code m}. */
    public record DeviceNode(String containerPath, String hostPath, String permissions) {}
}
