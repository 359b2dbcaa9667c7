package io.hami.nativebind.hamicore;

/**
 * Memory in use on one device, by kind, as HAMi-core counts it (bytes).
 *
 * <p>HAMi-core's per-device record holds context, module and data sizes, a fourth counter named
 * {@code offset} and the total. Upstream's monitor calls the third one "buffer"; here {@code dataBytes}
 * is that third counter and {@code bufferBytes} the fourth ({@code offset}), which HAMi-core does not
 * fill today, so it reads 0 in practice.
 */
public record DeviceMemory(long contextBytes, long moduleBytes, long dataBytes, long bufferBytes, long totalBytes) {}
