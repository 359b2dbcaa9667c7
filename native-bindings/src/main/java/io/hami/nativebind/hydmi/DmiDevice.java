package io.hami.nativebind.hydmi;

/** A physical DCU as hydmi sees it; {@code usedMemoryBytes} includes what its virtual devices hold. */
public record DmiDevice(int index, String name, int computeUnits, long memoryBytes, long usedMemoryBytes) {}
