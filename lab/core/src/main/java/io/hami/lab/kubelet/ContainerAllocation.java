package io.hami.lab.kubelet;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What one Allocate call gave one container for one resource, as the simulated kubelet would hand it to the
 * container runtime.
 *
 * @param container which container of which pod on which node
 * @param resource  the extended resource Allocate was called for
 * @param deviceIds the kubelet device IDs it was called with
 * @param answer    what the plugin answered
 * @param took      how long the call took
 */
public record ContainerAllocation(
        ContainerRef container, String resource, List<String> deviceIds, Answer answer, Duration took) {
    /**
     * @param podUid the pod's UID
     * @param pod    {@code namespace/name}
     * @param node   node name
     * @param index  the container's position, init containers first
     * @param name   container name
     */
    public record ContainerRef(String podUid, String pod, String node, int index, String name) {}

    /** The environment, mounts and device nodes the plugin answered. */
    public record Answer(Map<String, String> env, List<Mount> mounts, List<DeviceNode> devices) {
        public Answer {
            env = Map.copyOf(env);
            mounts = List.copyOf(mounts);
            devices = List.copyOf(devices);
        }
    }

    /** A host path mounted into the container. */
    public record Mount(String containerPath, String hostPath, boolean readOnly) {}

    /** A device node given to the container. */
    public record DeviceNode(String containerPath, String hostPath, String permissions) {}

    public ContainerAllocation {
        deviceIds = List.copyOf(deviceIds);
    }
}
