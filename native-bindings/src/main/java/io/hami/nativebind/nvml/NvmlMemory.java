package io.hami.nativebind.nvml;

/** Device memory in bytes; {@code reserved} is 0 where only the v1 call exists. */
public record NvmlMemory(long totalBytes, long reservedBytes, long freeBytes, long usedBytes) {

    public long totalMiB() {
        return totalBytes >> 20;
    }
}
