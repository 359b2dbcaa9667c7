package io.hami.nativebind.hamicore;

import java.util.List;

/**
 * One process slot; {@code memory} and {@code smUtilization} are indexed like the region's devices.
 *
 * @param pid the process id inside the container
 * @param hostPid the process id on the host (0 until HAMi-core has found it)
 * @param memory memory in use per device
 * @param smUtilization SM utilisation per device, percent
 */
public record ProcessUsage(int pid, int hostPid, List<DeviceMemory> memory, List<Long> smUtilization) {
    public ProcessUsage {
        memory = List.copyOf(memory);
        smUtilization = List.copyOf(smUtilization);
    }
}
