package io.hami.nativebind.hydmi;

/** A virtual DCU (vDCU) carved out of physical device {@code deviceIndex}. */
public record VirtualDevice(int id, int deviceIndex, String name, int computeUnits, long memoryBytes) {}
