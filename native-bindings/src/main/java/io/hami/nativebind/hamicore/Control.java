package io.hami.nativebind.hamicore;

/**
 * The scheduling-feedback fields the monitor reads and writes.
 *
 * @param priority the container's task priority (0 high, 1 low)
 * @param recentKernel HAMi-core's recent-kernel counter; the monitor sets it to block (negative) or free it
 * @param utilizationSwitch 1 when the SM limit is in force, 0 when lifted
 * @param lastKernelTimeSeconds when the container last launched a kernel, seconds since the epoch (0 for
 *     version 0, which has no such field)
 */
public record Control(int priority, int recentKernel, int utilizationSwitch, long lastKernelTimeSeconds) {}
