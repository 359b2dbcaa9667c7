package io.hami.protocol.device;

import java.util.List;
import java.util.Objects;

/**
 * One MIG profile a GPU in {@code mig} mode offers, as the plugin publishes it in the register (upstream's
 * {@code MigProfile}, docs/mig-design.md §1.2).
 *
 * @param name       profile name, for example {@code 1g.5gb}
 * @param memoryMB   the profile's memory in MiB (NVML's {@code memorySizeMB})
 * @param core       the profile's share of the GPU's SMs, in percent rounded up
 * @param sliceCount NVML's slice count, a Go {@code uint32}
 * @param placements the legal placements, or null when the plugin wrote none (Go's nil slice, written as
 *                   {@code "placements":null}; an empty list is written as {@code []})
 */
public record MigProfile(String name, int memoryMB, int core, long sliceCount, List<MigPlacement> placements) {
    public MigProfile {
        Objects.requireNonNull(name, "name");
        if (sliceCount < 0 || sliceCount > MigPlacement.MAX_UINT32) {
            throw new IllegalArgumentException("sliceCount out of uint32 range: " + sliceCount);
        }
        placements = placements == null ? null : List.copyOf(placements);
    }

    /** The placements, empty when none were written. */
    public List<MigPlacement> placementsOrEmpty() {
        return placements == null ? List.of() : placements;
    }
}
