package io.hami.lab.kubelet;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What one Allocate call gave one container for one resource, as the simulated kubelet would hand it to the
 * container runtime.
 *
 * @param podUid         the pod's UID
 * @param pod            {@code namespace/name}
 * @param node           node name
 * @param containerIndex the container's position, init containers first
 * @param container      container name
 * @param resource       the extended resource Allocate was called for
 * @param deviceIds      the kubelet device IDs it was called with
 * @param env            environment variables the plugin answered
 * @param mounts         mounts the plugin answered
 * @param devices        device nodes the plugin answered
 * @param took           how long the call took
 */
public record ContainerAllocation(
        String podUid,
        String pod,
        String node,
        int containerIndex,
        String container,
        String resource,
        List<String> deviceIds,
        Map<String, String> env,
        List<Mount> mounts,
        List<DeviceNode> devices,
        Duration took) {
    /** A host path mounted into the container. */
    public record Mount(String containerPath, String hostPath, boolean readOnly) {}

    /** A device node given to the container. */
    public record DeviceNode(String containerPath, String hostPath, String permissions) {}

    public ContainerAllocation {
        deviceIds = List.copyOf(deviceIds);
        env = Map.copyOf(env);
        mounts = List.copyOf(mounts);
        devices = List.copyOf(devices);
    }
}
