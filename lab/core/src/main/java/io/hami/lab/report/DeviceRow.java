package io.hami.lab.report;

import io.hami.lab.check.DeviceCapacity;

/**
 * One device's allocation at the end of the run and at its peak.
 *
 * @param device     what the device has
 * @param memory     MiB allocated at the end
 * @param cores      cores allocated at the end
 * @param tasks      containers sharing it at the end
 * @param peakMemory most MiB allocated in any sample
 * @param peakCores  most cores allocated in any sample
 */
public record DeviceRow(DeviceCapacity device, long memory, long cores, int tasks, long peakMemory, long peakCores) {}
