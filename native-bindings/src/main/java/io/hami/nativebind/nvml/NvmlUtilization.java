package io.hami.nativebind.nvml;

/**
 * What nvmlDeviceGetUtilizationRates reports for one GPU, each in percent of the driver's last sample period.
 *
 * @param gpuPercent time a kernel was running
 * @param memoryPercent time device memory was being read or written (the memory controller)
 */
public record NvmlUtilization(int gpuPercent, int memoryPercent) {}
