package io.hami.nativebind.hydmi;

/** Compute units and memory of a DCU still free for new virtual devices. */
public record DmiRemaining(long computeUnits, long memoryBytes) {}
