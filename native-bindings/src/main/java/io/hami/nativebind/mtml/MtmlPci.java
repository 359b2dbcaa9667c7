package io.hami.nativebind.mtml;

/** PCI location of a Moore Threads GPU; {@code sbdf} as MTML formats it ({@code 00000000:1A:00.0}). */
public record MtmlPci(String sbdf, int segment, int bus, int device, int pciDeviceId, int pciSubsystemId) {}
