package io.hami.node.nvidia.topology;

import io.hami.backend.nvidia.topology.DevicePairScore;
import io.hami.nativebind.nvml.NvmlTopologyLevel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Upstream's GPU pair score (docs/upstream.md, HAMi's {@code calculate_score.go}): what one GPU's NVML says about the
 * way to a peer is one or two links, the PCIe level and, when 1 to 18 NVLinks lead to the peer, the NVLinks. The pair
 * scores the sum over the first GPU's links: CrossCPU (system) 10, SameCPU (node) 20, HostBridge 30, MultiSwitch 40,
 * SingleSwitch 50, SameBoard (internal) 60, and 100 per NVLink. When the two ends see a different number of links
 * (one sees NVLinks, the other none) the data is asymmetric and the pair scores 0.
 */
public final class PairScores {
    /** NVLinks between two GPUs that count as such; upstream has no link kind for more. */
    static final int MAX_NVLINKS = 18;

    private PairScores() {}

    /**
     * What one GPU's NVML says about the way to one peer.
     *
     * @param level   the common ancestor on the PCIe tree
     * @param nvlinks active NVLinks whose remote end is the peer
     */
    public record Link(NvmlTopologyLevel level, int nvlinks) {
        public Link {
            Objects.requireNonNull(level, "level");
        }
    }

    /**
     * One GPU and the way to each peer, by peer UUID.
     *
     * @param uuid  the GPU
     * @param links the way to every other GPU being scored
     */
    public record Gpu(String uuid, Map<String, Link> links) {
        public Gpu {
            Objects.requireNonNull(uuid, "uuid");
            links = Map.copyOf(links);
        }
    }

    /**
     * The annotation's entries and the pairs scored 0 for asymmetric data.
     *
     * @param entries    one per GPU in the given order, each scoring every other GPU
     * @param asymmetric {@code "<uuid>/<uuid>"} once per asymmetric pair, first GPU first
     */
    public record Scores(List<DevicePairScore> entries, List<String> asymmetric) {
        public Scores {
            entries = List.copyOf(entries);
            asymmetric = List.copyOf(asymmetric);
        }
    }

    /** Every GPU's score to every other GPU of {@code gpus}, each of which must give the way to all others. */
    public static Scores scores(List<Gpu> gpus) {
        List<DevicePairScore> entries = new ArrayList<>(gpus.size());
        List<String> asymmetric = new ArrayList<>();
        for (int i = 0; i < gpus.size(); i++) {
            Gpu a = gpus.get(i);
            Map<String, Integer> score = new LinkedHashMap<>();
            for (int j = 0; j < gpus.size(); j++) {
                if (i == j) {
                    continue;
                }
                Gpu b = gpus.get(j);
                Link there = link(a, b);
                Link back = link(b, a);
                if (!symmetric(there, back) && i < j) {
                    asymmetric.add(a.uuid() + "/" + b.uuid());
                }
                score.put(b.uuid(), pair(there, back));
            }
            entries.add(new DevicePairScore(a.uuid(), score));
        }
        return new Scores(entries, asymmetric);
    }

    /** The score of the pair seen from the end that gives {@code there}; {@code back} is the other end's view. */
    public static int pair(Link there, Link back) {
        if (!symmetric(there, back)) {
            return 0;
        }
        return levelScore(there.level()) + (countsAsNvlinks(there) ? 100 * there.nvlinks() : 0);
    }

    /** Upstream compares the number of link kinds each end lists, not the NVLink counts themselves. */
    static boolean symmetric(Link there, Link back) {
        return countsAsNvlinks(there) == countsAsNvlinks(back);
    }

    static int levelScore(NvmlTopologyLevel level) {
        return switch (level) {
            case INTERNAL -> 60;
            case SINGLE -> 50;
            case MULTIPLE -> 40;
            case HOSTBRIDGE -> 30;
            case NODE -> 20;
            case SYSTEM -> 10;
        };
    }

    private static boolean countsAsNvlinks(Link link) {
        return link.nvlinks() >= 1 && link.nvlinks() <= MAX_NVLINKS;
    }

    private static Link link(Gpu from, Gpu to) {
        Link link = from.links().get(to.uuid());
        if (link == null) {
            throw new IllegalArgumentException("no link data from GPU " + from.uuid() + " to GPU " + to.uuid());
        }
        return link;
    }
}
