package io.hami.backend.nvidia.topology;

import io.hami.protocol.codec.AnnotationFormatException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node's pair scores by device UUID, as decoded from {@code hami.io/node-nvidia-score}. Decoded once per distinct
 * annotation value: filter asks for every node and pod, while a node's value changes only when its GPUs do.
 */
public record PairScoreTable(Map<String, DevicePairScore> byUuid) implements TopologyChoice.PairScores {
    public static final PairScoreTable EMPTY = new PairScoreTable(Map.of());

    /** Distinct values kept; a cluster has about one per GPU model and board layout. */
    private static final int CACHE_LIMIT = 1024;

    private static final Map<String, PairScoreTable> CACHE = new ConcurrentHashMap<>();

    public PairScoreTable {
        byUuid = Map.copyOf(byUuid);
    }

    public static PairScoreTable of(List<DevicePairScore> scores) {
        var map = new HashMap<String, DevicePairScore>();
        scores.forEach(s -> map.put(s.uuid(), s));
        return new PairScoreTable(map);
    }

    /**
     * The table of an annotation value (null: none). A value that does not decode gives no scores here; discovery has
     * already refused such a node.
     */
    public static PairScoreTable parse(String value) {
        if (value == null) {
            return EMPTY;
        }
        PairScoreTable cached = CACHE.get(value);
        if (cached != null) {
            return cached;
        }
        PairScoreTable table;
        try {
            table = of(DevicePairScoreCodec.decode(value));
        } catch (AnnotationFormatException e) {
            table = EMPTY;
        }
        if (CACHE.size() >= CACHE_LIMIT) {
            CACHE.clear(); // crude, but bounded; a full cache means values churn and caching buys little
        }
        CACHE.put(value, table);
        return table;
    }

    @Override
    public int score(String from, String to) {
        DevicePairScore s = byUuid.get(from);
        return s == null ? 0 : s.to(to);
    }
}
