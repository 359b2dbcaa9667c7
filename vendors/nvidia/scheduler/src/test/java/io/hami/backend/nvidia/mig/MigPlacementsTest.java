package io.hami.backend.nvidia.mig;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.backend.nvidia.mig.MigPlacements.Choice;
import io.hami.protocol.device.MigPlacement;
import io.hami.protocol.device.MigProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Upstream's vectors of {@code mig_topology_test.go} and the choices of {@code mig_capability_test.go}. */
class MigPlacementsTest {

    private static List<MigPlacement> slots(long size, long... starts) {
        return LongStream.of(starts).mapToObj(s -> new MigPlacement(s, size)).toList();
    }

    /** Upstream's A100-40GB test profiles (docs/mig-design.md §2): 3g placements cover 4 memory slices. */
    private static final List<MigProfile> A100 = List.of(
            new MigProfile("1g.5gb", 5120, 14, 1, slots(1, 0, 1, 2, 3, 4, 5, 6)),
            new MigProfile("2g.10gb", 10240, 28, 2, slots(2, 0, 2, 4)),
            new MigProfile("3g.20gb", 20480, 42, 3, slots(4, 0, 4)));

    private static final List<MigPlacement> THREE_2G = slots(2, 0, 2, 4);

    /** {@code TestSelectMigPlacementUsesBalancedPacking}: 3g, 2g, 1g, 1g land at starts 4, 0, 3, 2. */
    @Test
    void placementsPackBalanced() {
        var occupied = new ArrayList<MigPlacement>();
        var starts = new ArrayList<Long>();
        for (String profile : List.of("3g.20gb", "2g.10gb", "1g.5gb", "1g.5gb")) {
            MigPlacement p = MigPlacements.place(A100, occupied, profile).orElseThrow();
            starts.add(p.start());
            occupied.add(p);
        }
        assertThat(starts).containsExactly(4L, 0L, 3L, 2L);
    }

    /** {@code TestCanPlaceMigProfilesA100}. */
    @Test
    void canPlaceAnswersUpstreamsFeasibilityVectors() {
        assertThat(MigPlacements.canPlace(A100, List.of(), List.of("3g.20gb", "2g.10gb", "1g.5gb", "1g.5gb")))
                .as("the all-balanced geometry")
                .isTrue();
        assertThat(MigPlacements.canPlace(A100, slots(4, 4), List.of("2g.10gb", "1g.5gb", "1g.5gb")))
                .as("the rest of the balanced geometry beside a 3g at 4")
                .isTrue();
        assertThat(MigPlacements.canPlace(A100, slots(4, 0, 4), List.of("1g.5gb")))
                .as("nothing beside two 3g")
                .isFalse();
        assertThat(MigPlacements.canPlace(A100, THREE_2G, List.of("2g.10gb")))
                .as("a fourth 2g")
                .isFalse();
        assertThat(MigPlacements.canPlace(A100, THREE_2G, List.of())).isTrue();
        assertThat(MigPlacements.canPlace(A100, List.of(), List.of("4g.20gb")))
                .as("an unknown profile")
                .isFalse();
    }

    /** {@code TestAddResourceUsageUsesReportedProfileAndPlacement}: 10000 MiB gets 2g.10gb at {0,2}. */
    @Test
    void aRequestGetsTheSmallestProfileWithEnoughMemory() {
        Choice c = MigPlacements.choose(A100, List.of(), 10000).orElseThrow();
        assertThat(c.profile().name()).isEqualTo("2g.10gb");
        assertThat(c.profile().memoryMB()).isEqualTo(10240);
        assertThat(c.profile().core()).isEqualTo(28);
        assertThat(c.placement()).isEqualTo(new MigPlacement(0, 2));
    }

    /** {@code TestCustomFilterUsesReportedPlacementCapacity}: beside three 2g, 10000 MiB fails and 5000 gets the 1g. */
    @Test
    void theReportedPlacementsBoundWhatFits() {
        assertThat(MigPlacements.choose(A100, THREE_2G, 10000)).isEmpty();
        assertThat(MigPlacements.choose(A100, THREE_2G, 5000))
                .contains(new Choice(A100.get(0), new MigPlacement(6, 1)));
        // TestFitUsesEffectivePercentageMemoryForMigPlacement: 25% of 40960 MiB is 10240, more than the 1g left
        assertThat(MigPlacements.choose(A100, THREE_2G, 40960 * 25 / 100)).isEmpty();
    }

    /**
     * {@code TestCustomFilterIgnoresQueuedAllocationsForOtherGPUs}, the choice part: a grant queued on this GPU takes
     * its last 1g, so a second one does not fit; one queued elsewhere leaves the occupancy as it was.
     */
    @Test
    void aChoiceTakenOnTheSameGpuConsumesItsPlacement() {
        Choice queued = MigPlacements.choose(A100, THREE_2G, 5000).orElseThrow();
        var withQueued = new ArrayList<>(THREE_2G);
        withQueued.add(queued.placement());
        assertThat(MigPlacements.choose(A100, withQueued, 5000)).isEmpty();
        assertThat(MigPlacements.choose(A100, THREE_2G, 5000)).isPresent();
    }

    @Test
    void aLargerProfileServesASmallRequestWhenTheSmallOnesAreTaken() {
        var allOnes = slots(1, 2, 3, 4, 5, 6);
        // 1g slots 2..6 taken, 1g at 0 and 1 free: the 1g at 1 (highest free start)
        assertThat(MigPlacements.choose(A100, allOnes, 100).orElseThrow().placement())
                .isEqualTo(new MigPlacement(1, 1));
        var onlyTwoG = slots(1, 0, 1, 2, 3, 4, 5, 6).subList(2, 7); // 2..6 taken, 0 and 1 free
        assertThat(MigPlacements.choose(A100.subList(1, 3), onlyTwoG, 100))
                .as("without 1g profiles the 2g at 0 serves 100 MiB")
                .contains(new Choice(A100.get(1), new MigPlacement(0, 2)));
    }

    @Test
    void equalMemoryIsOrderedBySliceCountThenKeptInOrder() {
        var p1 = new MigProfile("1g.10gb", 9984, 14, 2, slots(2, 0, 2, 4, 6));
        var p2 = new MigProfile("2g.10gb", 9984, 28, 2, slots(2, 0, 2, 4));
        var p0 = new MigProfile("x", 9984, 28, 1, slots(8, 0));
        assertThat(MigPlacements.choose(List.of(p1, p2, p0), List.of(), 9000)
                        .orElseThrow()
                        .profile())
                .as("fewest slices first")
                .isEqualTo(p0);
        assertThat(MigPlacements.choose(List.of(p1, p2), List.of(), 9000).orElseThrow())
                .as("then the given order; 1g. profiles take the highest start")
                .isEqualTo(new Choice(p1, new MigPlacement(6, 2)));
        assertThat(MigPlacements.choose(List.of(p2, p1), List.of(), 9000).orElseThrow())
                .isEqualTo(new Choice(p2, new MigPlacement(0, 2)));
    }

    @Test
    void oneGAndThreeGTakeTheHighestStartOthersTheLowest() {
        var shuffled = slots(1, 3, 0, 6, 3);
        assertThat(MigPlacements.ordered("1g.5gb", shuffled).stream().map(MigPlacement::start))
                .containsExactly(6L, 3L, 3L, 0L);
        assertThat(MigPlacements.ordered("3g.40gb", shuffled).stream().map(MigPlacement::start))
                .containsExactly(6L, 3L, 3L, 0L);
        assertThat(MigPlacements.ordered("2g.10gb", shuffled).stream().map(MigPlacement::start))
                .containsExactly(0L, 3L, 3L, 6L);
        assertThat(MigPlacements.ordered("7g.80gb", shuffled).stream().map(MigPlacement::start))
                .containsExactly(0L, 3L, 3L, 6L);
        assertThat(MigPlacements.ordered("1g", shuffled).stream().map(MigPlacement::start))
                .as("only the prefix with its dot counts")
                .containsExactly(0L, 3L, 3L, 6L);
    }

    @Test
    void placeUsesTheFirstProfileOfTheNameAndNothingForAnUnknownOne() {
        var first = new MigProfile("2g.10gb", 1, 1, 2, slots(2, 4));
        var second = new MigProfile("2g.10gb", 1, 1, 2, slots(2, 0));
        assertThat(MigPlacements.place(List.of(first, second), List.of(), "2g.10gb"))
                .contains(new MigPlacement(4, 2));
        assertThat(MigPlacements.place(A100, List.of(), "4g.20gb")).isEmpty();
        assertThat(MigPlacements.place(List.of(new MigProfile("1g.5gb", 1, 1, 1, null)), List.of(), "1g.5gb"))
                .as("a nil placement list offers nothing")
                .isEmpty();
    }

    @Test
    void placementsOverlapWhenTheirSliceRangesIntersect() {
        assertThat(new MigPlacement(0, 4).overlaps(new MigPlacement(4, 4))).isFalse();
        assertThat(new MigPlacement(0, 4).overlaps(new MigPlacement(3, 1))).isTrue();
        assertThat(new MigPlacement(3, 1).overlaps(new MigPlacement(0, 4))).isTrue();
        assertThat(new MigPlacement(6, 1).overlaps(new MigPlacement(4, 2))).isFalse();
        // Go's uint32 sum wraps: an end past 2^32 comes out small, so these do not overlap upstream
        assertThat(new MigPlacement(0xFFFF_FFF0L, 0x20).overlaps(new MigPlacement(0xFFFF_FFF8L, 1)))
                .isFalse();
    }
}
