package io.hami.nativebind.hamicore;

/** The result of mapping one shared-region file to read it again and again. */
public sealed interface RegionOpen permits MappedRegion, RegionRead.Skipped {}
