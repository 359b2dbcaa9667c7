package io.hami.nativebind.hamicore;

/**
 * Per device of the container: its UUID and the limits HAMi-core enforces.
 *
 * @param uuid the device UUID as HAMi-core wrote it (up to the first NUL)
 * @param memoryLimitBytes the device memory limit, bytes (0 = none)
 * @param smLimitPercent the SM (core) limit, percent (0 or 100 = none)
 */
public record DeviceShare(String uuid, long memoryLimitBytes, long smLimitPercent) {}
