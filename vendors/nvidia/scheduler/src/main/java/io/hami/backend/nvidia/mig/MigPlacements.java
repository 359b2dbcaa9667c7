package io.hami.backend.nvidia.mig;

import io.hami.protocol.device.MigPlacement;
import io.hami.protocol.device.MigProfile;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Upstream's MIG placement rules as pure functions (docs/mig-design.md §1.3; {@code mig_topology.go},
 * {@code selectMigCandidate}): which profile and placement a request gets on a GPU given the placements already
 * occupied there.
 */
public final class MigPlacements {
    private MigPlacements() {}

    /** A profile and the placement chosen for it. */
    public record Choice(MigProfile profile, MigPlacement placement) {}

    /**
     * The placements to try, in order: the highest start first for {@code 1g.} and {@code 3g.} profiles (they pack
     * from the top, leaving the low slices to 2g), the lowest first for every other profile; stable otherwise.
     */
    public static List<MigPlacement> ordered(String profileName, List<MigPlacement> placements) {
        Comparator<MigPlacement> byStart = Comparator.comparingLong(MigPlacement::start);
        boolean high = profileName.startsWith("1g.") || profileName.startsWith("3g.");
        return placements.stream().sorted(high ? byStart.reversed() : byStart).toList();
    }

    /**
     * The first placement, in {@link #ordered} order, of the first profile named {@code profileName} that overlaps
     * no occupied placement; empty when there is none or no such profile.
     */
    public static Optional<MigPlacement> place(
            List<MigProfile> profiles, Collection<MigPlacement> occupied, String profileName) {
        return profiles.stream()
                .filter(p -> p.name().equals(profileName))
                .findFirst()
                .flatMap(p -> free(ordered(profileName, p.placementsOrEmpty()), occupied));
    }

    /**
     * What a request of {@code memoryMiB} gets: the smallest profile (by memory, then slice count) with at least that
     * memory that still has a free placement, and that placement.
     */
    public static Optional<Choice> choose(
            List<MigProfile> profiles, Collection<MigPlacement> occupied, long memoryMiB) {
        var bySize = profiles.stream()
                .sorted(Comparator.comparingInt(MigProfile::memoryMB).thenComparingLong(MigProfile::sliceCount))
                .toList();
        for (MigProfile profile : bySize) {
            if (profile.memoryMB() < memoryMiB) {
                continue;
            }
            var placement = place(profiles, occupied, profile.name());
            if (placement.isPresent()) {
                return Optional.of(new Choice(profile, placement.get()));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether every requested profile gets a placement of its own beside the occupied ones (upstream's
     * {@code canPlaceMigProfiles}: the profiles with the fewest placements first, then the largest, with
     * backtracking). Upstream uses it only in tests; it answers whether a set of profiles fits a GPU.
     */
    public static boolean canPlace(
            List<MigProfile> profiles, Collection<MigPlacement> occupied, List<String> requested) {
        Map<String, List<MigPlacement>> placements = new LinkedHashMap<>();
        profiles.forEach(p -> placements.put(p.name(), p.placementsOrEmpty())); // the last of a name wins, as in Go
        var order = new ArrayList<>(requested);
        order.sort((a, b) -> {
            var left = placements.getOrDefault(a, List.of());
            var right = placements.getOrDefault(b, List.of());
            if (left.size() != right.size()) {
                return Integer.compare(left.size(), right.size());
            }
            return left.isEmpty()
                    ? 0
                    : Long.compare(right.get(0).size(), left.get(0).size());
        });
        return place(order, 0, placements, new ArrayList<>(occupied));
    }

    private static boolean place(
            List<String> order, int next, Map<String, List<MigPlacement>> placements, List<MigPlacement> used) {
        if (next == order.size()) {
            return true;
        }
        String name = order.get(next);
        for (MigPlacement candidate : ordered(name, placements.getOrDefault(name, List.of()))) {
            if (used.stream().noneMatch(candidate::overlaps)) {
                used.add(candidate);
                if (place(order, next + 1, placements, used)) {
                    return true;
                }
                used.removeLast();
            }
        }
        return false;
    }

    private static Optional<MigPlacement> free(List<MigPlacement> candidates, Collection<MigPlacement> occupied) {
        return candidates.stream()
                .filter(c -> occupied.stream().noneMatch(c::overlaps))
                .findFirst();
    }
}
