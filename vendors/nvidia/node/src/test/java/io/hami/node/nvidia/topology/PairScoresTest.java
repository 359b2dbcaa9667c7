package io.hami.node.nvidia.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.backend.nvidia.topology.DevicePairScoreCodec;
import io.hami.nativebind.nvml.NvmlTopologyLevel;
import io.hami.node.nvidia.topology.PairScores.Gpu;
import io.hami.node.nvidia.topology.PairScores.Link;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PairScoresTest {

    @ParameterizedTest
    @CsvSource({"INTERNAL, 60", "SINGLE, 50", "MULTIPLE, 40", "HOSTBRIDGE, 30", "NODE, 20", "SYSTEM, 10"})
    void aPcieOnlyPairScoresItsLevel(NvmlTopologyLevel level, int score) {
        assertThat(PairScores.pair(new Link(level, 0), new Link(level, 0))).isEqualTo(score);
    }

    @ParameterizedTest
    @CsvSource({"NODE, 1, 120", "NODE, 12, 1220", "SYSTEM, 18, 1810", "SINGLE, 4, 450"})
    void nvlinksAdd100EachToTheLevel(NvmlTopologyLevel level, int nvlinks, int score) {
        assertThat(PairScores.pair(new Link(level, nvlinks), new Link(level, nvlinks)))
                .isEqualTo(score);
    }

    @Test
    void moreThan18NvlinksAreNoLinkKindUpstreamKnowsSoOnlyTheLevelCounts() {
        assertThat(PairScores.pair(new Link(NvmlTopologyLevel.NODE, 19), new Link(NvmlTopologyLevel.NODE, 19)))
                .isEqualTo(20);
        // 19 counts as none, so against 12 on the other end the data is asymmetric
        assertThat(PairScores.pair(new Link(NvmlTopologyLevel.NODE, 19), new Link(NvmlTopologyLevel.NODE, 12)))
                .isZero();
    }

    @Test
    void nvlinksSeenFromOneEndOnlyScoreZeroBothWays() {
        Link twelve = new Link(NvmlTopologyLevel.NODE, 12);
        Link none = new Link(NvmlTopologyLevel.NODE, 0);
        assertThat(PairScores.pair(twelve, none)).isZero();
        assertThat(PairScores.pair(none, twelve)).isZero();
    }

    @Test
    void differentCountsAndLevelsAtTheTwoEndsAreNotAsymmetryEachEndScoresItsOwnView() {
        // upstream compares how many link kinds each end lists, not the counts
        assertThat(PairScores.pair(new Link(NvmlTopologyLevel.SINGLE, 12), new Link(NvmlTopologyLevel.NODE, 6)))
                .isEqualTo(1250);
        assertThat(PairScores.pair(new Link(NvmlTopologyLevel.NODE, 6), new Link(NvmlTopologyLevel.SINGLE, 12)))
                .isEqualTo(620);
    }

    @Test
    void everyGpuScoresEveryOtherAndAsymmetricPairsAreNamedOnce() {
        var scores = PairScores.scores(List.of(
                new Gpu(
                        "GPU-a",
                        Map.of(
                                "GPU-b", new Link(NvmlTopologyLevel.NODE, 12),
                                "GPU-c", new Link(NvmlTopologyLevel.SYSTEM, 0))),
                new Gpu(
                        "GPU-b",
                        Map.of(
                                "GPU-a", new Link(NvmlTopologyLevel.NODE, 12),
                                "GPU-c", new Link(NvmlTopologyLevel.SYSTEM, 2))),
                new Gpu(
                        "GPU-c",
                        Map.of(
                                "GPU-a", new Link(NvmlTopologyLevel.SYSTEM, 0),
                                "GPU-b", new Link(NvmlTopologyLevel.SYSTEM, 0)))));

        assertThat(DevicePairScoreCodec.encode(scores.entries()))
                .isEqualTo("[{\"uuid\":\"GPU-a\",\"score\":{\"GPU-b\":1220,\"GPU-c\":10}},"
                        + "{\"uuid\":\"GPU-b\",\"score\":{\"GPU-a\":1220,\"GPU-c\":0}},"
                        + "{\"uuid\":\"GPU-c\",\"score\":{\"GPU-a\":10,\"GPU-b\":0}}]");
        assertThat(scores.asymmetric()).containsExactly("GPU-b/GPU-c");
    }

    @Test
    void aGpuWithoutDataTowardsAPeerIsAnError() {
        var gpus = List.of(
                new Gpu("GPU-a", Map.of("GPU-b", new Link(NvmlTopologyLevel.NODE, 0))), new Gpu("GPU-b", Map.of()));
        assertThatThrownBy(() -> PairScores.scores(gpus))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no link data from GPU GPU-b to GPU GPU-a");
    }

    @Test
    void throughNvswitchesTheFewerSwitchLinksCountAndOnlyWhenBothHaveSome() {
        assertThat(NvmlLinks.throughSwitches(18, 12)).isEqualTo(12);
        assertThat(NvmlLinks.throughSwitches(18, 18)).isEqualTo(18);
        assertThat(NvmlLinks.throughSwitches(18, 0)).isZero();
        assertThat(NvmlLinks.throughSwitches(0, 4)).isZero();
    }

    @Test
    void busIdsCompareInUpstreamsShortForm() {
        assertThat(NvmlLinks.busId("00000000:0F:00.0")).isEqualTo("0000:0f:00.0");
        assertThat(NvmlLinks.busId("0001:8A:00.0")).isEqualTo("0001:8a:00.0");
        assertThat(NvmlLinks.busId("0000")).isEqualTo("0000");
    }
}
