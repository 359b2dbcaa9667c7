package io.hami.scheduler.fit;

import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.fit.DeviceUsage;

/** The device score of docs/upstream.md#device-score, in float32 and Go's operation order. */
final class DeviceScore {
    private DeviceScore() {}

    static float of(DeviceUsage u, ContainerRequest request, ScoringWeights w) {
        var d = u.device();
        if (d.count() == 0 || d.devcore() == 0 || d.devmem() == 0) {
            return 0f;
        }
        // Upstream counts the request only when its type keyword equals the device's model type, which
        // happens for vendors whose devices are typed by keyword (MLU, Mthreads); kept for identical scores.
        boolean counted = request != null && request.type().equals(d.type());
        int req = counted ? 1 : 0;
        int core = counted ? request.coresreq() : 0;
        int mem = 0;
        if (counted) {
            int pct = request.memPercentagereq();
            mem = pct != 0 && pct != ContainerRequest.NO_PERCENTAGE
                    ? (int) ((long) d.devmem() * pct / 100)
                    : request.memreq();
        }
        float slot = (float) w.slot() * (float) (req + u.used()) / (float) d.count();
        float cores = (float) w.core() * (float) (core + u.usedcores()) / (float) d.devcore();
        float memory = (float) w.memory() * (float) (mem + u.usedmem()) / (float) d.devmem();
        return 10f * (slot + cores + memory);
    }
}
