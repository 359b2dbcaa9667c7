package io.hami.lab.usage;

/**
 * One container's memory on one of its GPUs, as a workload wrote it or a node monitor reported it.
 *
 * @param pod        {@code namespace/name}
 * @param container  container name
 * @param device     the device's index in the container ({@code vdevice_index})
 * @param uuid       the device's UUID
 * @param usedBytes  memory in use, summed over the container's processes
 * @param limitBytes the container's memory limit on the device
 */
public record ContainerUsage(String pod, String container, int device, String uuid, long usedBytes, long limitBytes) {
    /** Which container's which device: equal for the workload's and the monitor's figure of the same thing. */
    public String key() {
        return pod + "/" + container + " GPU " + device;
    }
}
