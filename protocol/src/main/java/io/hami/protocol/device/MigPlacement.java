package io.hami.protocol.device;

/**
 * A MIG placement as NVML reports it: the first memory slice and the number of slices, both Go {@code uint32}s
 * (held as {@code long}). Two placements overlap when their {@code [start, start + size)} ranges intersect.
 *
 * @param start first memory slice, 0 to {@value #MAX_UINT32}
 * @param size  number of memory slices, 0 to {@value #MAX_UINT32}
 */
public record MigPlacement(long start, long size) {
    public static final long MAX_UINT32 = 0xFFFF_FFFFL;

    public MigPlacement {
        if (start < 0 || start > MAX_UINT32 || size < 0 || size > MAX_UINT32) {
            throw new IllegalArgumentException("MIG placement out of uint32 range: start " + start + ", size " + size);
        }
    }

    /** Whether the two placements share a memory slice (upstream's uint32 sums, which wrap, included). */
    public boolean overlaps(MigPlacement other) {
        return start < ((other.start + other.size) & MAX_UINT32) && other.start < ((start + size) & MAX_UINT32);
    }
}
