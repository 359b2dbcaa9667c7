package io.hami.backend.nvidia.topology;

import java.util.Map;
import java.util.Objects;

/**
 * One GPU's link scores to its peers, as the NVIDIA plugin publishes them in {@code hami.io/node-nvidia-score}
 * (upstream's {@code DevicePairScore}: {@code {"uuid":"GPU-a","score":{"GPU-b":100}}}). A higher score means a
 * better connection (NVLink beats PCIe beats crossing sockets); a missing peer scores 0.
 *
 * @param uuid  the device this entry is about
 * @param score peer UUID to score
 */
public record DevicePairScore(String uuid, Map<String, Integer> score) {
    public DevicePairScore {
        Objects.requireNonNull(uuid, "uuid");
        score = Map.copyOf(score);
    }

    /** The score to {@code peer}, 0 when none was published. */
    public int to(String peer) {
        return score.getOrDefault(peer, 0);
    }
}
