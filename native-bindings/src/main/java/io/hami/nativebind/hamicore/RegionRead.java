package io.hami.nativebind.hamicore;

/** The result of reading one shared-region file. */
public sealed interface RegionRead permits RegionRead.Read, RegionRead.Skipped {
    /** A usable region. */
    record Read(SharedRegion region) implements RegionRead {}

    /** A file that is not a usable region: truncated, foreign magic, unknown version, changed while read. */
    record Skipped(String reason) implements RegionRead, RegionOpen {}
}
