package io.hami.nativebind.hamicore;

import java.util.List;

/**
 * One container's HAMi-core shared region as read at one moment.
 *
 * @param majorVersion the region's major version: 0 (HAMi-core before versioning) or 1
 * @param minorVersion the region's minor version (0 for version 0, which has no such field)
 * @param devices the container's devices, {@code device_num} of them, in HAMi-core's order
 * @param processes the process slots {@code 0 .. proc_num-1}, including those a process left on exit (pid 0)
 *     until HAMi-core compacts the table
 * @param control the scheduling-feedback fields
 */
public record SharedRegion(
        int majorVersion, int minorVersion, List<DeviceShare> devices, List<ProcessUsage> processes, Control control) {
    public SharedRegion {
        devices = List.copyOf(devices);
        processes = List.copyOf(processes);
    }
}
