package io.hami.backend.nvidia.topology;

import java.util.List;

/**
 * Upstream's topology-aware choice among the devices that fit (docs/upstream.md#fit, "After the loop"): a pure
 * function of the candidates' UUIDs, in walk order, and their pair scores.
 *
 * <ul>
 *   <li>one device: the candidate whose summed score to every other candidate is <em>lowest</em>, so the
 *       best-connected cards stay free for multi-GPU pods;
 *   <li>{@code k > 1}: of every {@code C(n, k)} combination, enumerated in candidate order, the one whose summed
 *       pair scores (each pair {@code i < j} read as {@code score[c_i][c_j]}) are <em>highest</em>.
 * </ul>
 *
 * Ties go to the first found; a missing score is 0. For {@code k > 1} only the first {@link #MAX_CANDIDATES}
 * candidates are enumerated (at most {@code C(16, 8) = 12870} combinations), which covers every node built today
 * (8 or 16 GPUs); on a bigger node the rest are not considered.
 */
public final class TopologyChoice {
    /** The most candidates whose combinations are enumerated. */
    public static final int MAX_CANDIDATES = 16;

    /** A directed pair score: what {@code from}'s entry says of {@code to}, 0 when it says nothing. */
    @FunctionalInterface
    public interface PairScores {
        int score(String from, String to);
    }

    private TopologyChoice() {}

    /**
     * The indices into {@code candidates} of the chosen {@code k} devices, ascending (candidate order). With
     * {@code k >= candidates.size()} that is the first {@code k}.
     */
    public static int[] choose(List<String> candidates, int k, PairScores scores) {
        if (k <= 0) {
            return new int[0];
        }
        int n = candidates.size();
        if (k >= n) {
            return firstK(Math.min(k, n));
        }
        if (k == 1) {
            return new int[] {worstConnected(candidates, scores)};
        }
        return bestCombination(candidates.subList(0, Math.max(Math.min(n, MAX_CANDIDATES), k)), k, scores);
    }

    private static int worstConnected(List<String> candidates, PairScores scores) {
        int worst = 0;
        long worstSum = Long.MAX_VALUE;
        for (int i = 0; i < candidates.size(); i++) {
            long sum = 0;
            for (int j = 0; j < candidates.size(); j++) {
                if (!candidates.get(i).equals(candidates.get(j))) {
                    sum += scores.score(candidates.get(i), candidates.get(j));
                }
            }
            if (sum < worstSum) {
                worstSum = sum;
                worst = i;
            }
        }
        return worst;
    }

    private static int[] bestCombination(List<String> candidates, int k, PairScores scores) {
        int n = candidates.size();
        if (k >= n) {
            return firstK(n);
        }
        // Pair scores read once; combinations then sum table entries.
        long[][] pair = new long[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                pair[i][j] = scores.score(candidates.get(i), candidates.get(j));
            }
        }
        int[] combo = firstK(k);
        int[] best = combo.clone();
        long bestSum = Long.MIN_VALUE;
        while (true) {
            long sum = 0;
            for (int a = 0; a < k - 1; a++) {
                for (int b = a + 1; b < k; b++) {
                    sum += pair[combo[a]][combo[b]];
                }
            }
            if (sum > bestSum) {
                bestSum = sum;
                System.arraycopy(combo, 0, best, 0, k);
            }
            // Next combination in lexicographic order, as upstream's recursive generator yields them.
            int i = k - 1;
            while (i >= 0 && combo[i] == n - k + i) {
                i--;
            }
            if (i < 0) {
                return best;
            }
            combo[i]++;
            for (int j = i + 1; j < k; j++) {
                combo[j] = combo[j - 1] + 1;
            }
        }
    }

    private static int[] firstK(int k) {
        int[] out = new int[k];
        for (int i = 0; i < k; i++) {
            out[i] = i;
        }
        return out;
    }
}
