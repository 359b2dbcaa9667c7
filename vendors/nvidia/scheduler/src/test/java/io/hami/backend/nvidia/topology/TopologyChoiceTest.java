package io.hami.backend.nvidia.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Upstream's topology-aware choice (docs/upstream.md#fit, "After the loop"). */
class TopologyChoiceTest {

    /** A DGX-like board: GPU-0..3 and GPU-4..7 are NVLink islands (6 links each way), PCIe across sockets. */
    static final Map<String, Map<String, Integer>> DGX = dgx();

    static Map<String, Map<String, Integer>> dgx() {
        var out = new HashMap<String, Map<String, Integer>>();
        for (int i = 0; i < 8; i++) {
            var row = new HashMap<String, Integer>();
            for (int j = 0; j < 8; j++) {
                if (i != j) {
                    row.put("GPU-" + j, i / 4 == j / 4 ? 600 : 10);
                }
            }
            out.put("GPU-" + i, row);
        }
        return out;
    }

    static TopologyChoice.PairScores table(Map<String, Map<String, Integer>> scores) {
        return (from, to) -> scores.getOrDefault(from, Map.of()).getOrDefault(to, 0);
    }

    static List<String> chosen(List<String> candidates, int k, Map<String, Map<String, Integer>> scores) {
        var out = new ArrayList<String>();
        for (int i : TopologyChoice.choose(candidates, k, table(scores))) {
            out.add(candidates.get(i));
        }
        return out;
    }

    @Test
    void twoCardsComeFromOneIslandEvenWhenTheWalkOrderInterleavesThem() {
        // candidate order as a walk might give it: islands alternate
        var candidates = List.of("GPU-7", "GPU-3", "GPU-6", "GPU-2", "GPU-5", "GPU-1", "GPU-4", "GPU-0");
        // first best combination in candidate order: (GPU-7, GPU-6)
        assertThat(chosen(candidates, 2, DGX)).containsExactly("GPU-7", "GPU-6");
        assertThat(chosen(List.of("GPU-0", "GPU-4", "GPU-5"), 2, DGX)).containsExactly("GPU-4", "GPU-5");
    }

    @Test
    void fourCardsAreAWholeIsland() {
        var candidates = List.of("GPU-0", "GPU-4", "GPU-1", "GPU-5", "GPU-2", "GPU-6", "GPU-7", "GPU-3");
        assertThat(chosen(candidates, 4, DGX)).containsExactly("GPU-0", "GPU-1", "GPU-2", "GPU-3");
        // with one card of the first island taken, the other island is the only full one
        var partial = List.of("GPU-0", "GPU-4", "GPU-1", "GPU-5", "GPU-2", "GPU-6", "GPU-7");
        assertThat(chosen(partial, 4, DGX)).containsExactly("GPU-4", "GPU-5", "GPU-6", "GPU-7");
    }

    @Test
    void oneCardIsTheWorstConnectedCandidate() {
        // GPU-4 is alone in its island among the candidates: it sums 3 x 10, the others 600 + 600 + 10
        var candidates = List.of("GPU-0", "GPU-1", "GPU-2", "GPU-4");
        assertThat(chosen(candidates, 1, DGX)).containsExactly("GPU-4");
    }

    @Test
    void tiesGoToTheFirstFoundInCandidateOrder() {
        var candidates = List.of("GPU-5", "GPU-1", "GPU-4", "GPU-0");
        // (5,4) and (1,0) both score 600; (5,4) comes first
        assertThat(chosen(candidates, 2, DGX)).containsExactly("GPU-5", "GPU-4");
        // no scores at all: every set ties, so the first k candidates, as the plain walk would take
        assertThat(chosen(candidates, 2, Map.of())).containsExactly("GPU-5", "GPU-1");
        assertThat(chosen(candidates, 1, Map.of())).containsExactly("GPU-5");
        assertThat(chosen(List.of("GPU-0", "GPU-1", "GPU-4", "GPU-5"), 1, DGX)).containsExactly("GPU-0");
    }

    @Test
    void scoresAreReadFromTheEarlierCandidatesEntryAndAMissingOneIsZero() {
        // only GPU-b's entry speaks of GPU-a; for the pair (a, b) upstream reads score[a][b], which is missing
        Map<String, Map<String, Integer>> oneSided = Map.of("GPU-b", Map.of("GPU-a", 500), "GPU-c", Map.of("GPU-d", 5));
        assertThat(chosen(List.of("GPU-a", "GPU-b", "GPU-c", "GPU-d"), 2, oneSided))
                .containsExactly("GPU-c", "GPU-d");
        assertThat(chosen(List.of("GPU-b", "GPU-a", "GPU-c", "GPU-d"), 2, oneSided))
                .containsExactly("GPU-b", "GPU-a");
    }

    @Test
    void asManyCandidatesAsCardsTakesThemAll() {
        assertThat(chosen(List.of("GPU-3", "GPU-4"), 2, DGX)).containsExactly("GPU-3", "GPU-4");
        assertThat(chosen(List.of("GPU-3"), 2, DGX)).containsExactly("GPU-3");
        assertThat(TopologyChoice.choose(List.of("GPU-3"), 0, table(DGX))).isEmpty();
    }

    @Test
    void onlyTheFirstSixteenCandidatesAreEnumerated() {
        // 20 candidates; the only linked pair sits at positions 17 and 18, past the bound
        var candidates = new ArrayList<String>();
        for (int i = 0; i < 20; i++) {
            candidates.add("G" + i);
        }
        var scores = Map.of("G17", Map.of("G18", 900), "G14", Map.of("G15", 1));
        assertThat(chosen(candidates, 2, scores)).containsExactly("G14", "G15");
        // a single card looks at every candidate (its cost is quadratic, not combinatorial)
        var single = new HashMap<String, Map<String, Integer>>();
        for (int i = 0; i < 19; i++) {
            single.put("G" + i, Map.of("G" + (i + 1), 1));
        }
        assertThat(chosen(candidates, 1, single)).containsExactly("G19");
    }

    @Test
    void sixteenChooseEightStaysFast() {
        var candidates = new ArrayList<String>();
        var scores = new HashMap<String, Map<String, Integer>>();
        for (int i = 0; i < 16; i++) {
            candidates.add("GPU-" + i);
            var row = new HashMap<String, Integer>();
            for (int j = 0; j < 16; j++) {
                row.put("GPU-" + j, (i % 2 == j % 2) ? 200 : 20);
            }
            scores.put("GPU-" + i, row);
        }
        long start = System.nanoTime();
        var chosen = chosen(candidates, 8, scores);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(chosen).containsExactly("GPU-0", "GPU-2", "GPU-4", "GPU-6", "GPU-8", "GPU-10", "GPU-12", "GPU-14");
        assertThat(millis).isLessThan(2000);
    }
}
