package io.hami.scheduler.fit;

import io.hami.protocol.fit.DeviceUsage;
import java.util.List;

/**
 * The node score of docs/upstream.md#node-score: how full the node already is, over every device of
 * every vendor, before the pod is placed. Binpack prefers the fullest node, spread the emptiest.
 */
public final class NodeScore {
    /** Highest priority an extender may return. */
    public static final int MAX_PRIORITY = 10;

    private NodeScore() {}

    /** {@code 10 * (Σused/Σcount + Σcores/Σtotalcores + Σmem/Σtotalmem)} in float32; 0 when a total is 0. */
    public static float of(NodeView node) {
        long used = 0;
        long count = 0;
        long cores = 0;
        long totalCores = 0;
        long mem = 0;
        long totalMem = 0;
        for (List<DeviceUsage> list : node.devices().values()) {
            for (DeviceUsage u : list) {
                used += u.used();
                count += u.device().count();
                cores += u.usedcores();
                totalCores += u.device().devcore();
                mem += u.usedmem();
                totalMem += u.device().devmem();
            }
        }
        if (count == 0 || totalCores == 0 || totalMem == 0) {
            return 0f;
        }
        return 10f * ((float) used / count + (float) cores / totalCores + (float) mem / totalMem);
    }

    /** The extender priority 0..10 (highest best) of a node score under {@code nodePolicy}. */
    public static long priority(float score, String nodePolicy) {
        long fullness = Math.max(0, Math.min(MAX_PRIORITY, Math.round(score / 3f)));
        return nodePolicy.trim().equals("spread") ? MAX_PRIORITY - fullness : fullness;
    }
}
