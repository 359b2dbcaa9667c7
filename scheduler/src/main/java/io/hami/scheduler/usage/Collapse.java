package io.hami.scheduler.usage;

import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How much of each device a pod holds (docs/upstream.md#usage): init containers run one at a
 * time, so they count at their peak; app containers run together, so they count as a sum; the pod holds
 * the larger of the two on each device.
 */
public final class Collapse {
    private Collapse() {}

    /**
     * What a pod holds of each device, by device ID.
     *
     * @param devices   one vendor's allocation, entry {@code i} for container {@code i}, init containers first
     * @param initCount how many leading entries are init containers
     * @param initDone  true once every init container exited 0: only the app containers count
     */
    public static Map<String, Grant> of(PodDevices devices, int initCount, boolean initDone) {
        var initPeak = new HashMap<String, Grant>();
        var appSum = new HashMap<String, Grant>();
        List<List<ContainerDevice>> containers = devices.containers();
        for (int i = 0; i < containers.size(); i++) {
            boolean init = i < initCount;
            if (init && initDone) {
                continue;
            }
            var perContainer = new HashMap<String, Grant>();
            for (ContainerDevice d : containers.get(i)) {
                // Decoders refuse negative numbers; never letting one through keeps usage from dropping below
                // what was granted even if a decoder changes.
                perContainer.merge(
                        d.uuid(), new Grant(1, Math.max(d.usedmem(), 0), Math.max(d.usedcores(), 0)), Grant::plus);
            }
            if (init) {
                perContainer.forEach((uuid, g) -> initPeak.merge(
                        uuid,
                        new Grant(1, g.mem(), g.cores()),
                        (a, b) -> new Grant(1, Math.max(a.mem(), b.mem()), Math.max(a.cores(), b.cores()))));
            } else {
                perContainer.forEach((uuid, g) -> appSum.merge(uuid, g, Grant::plus));
            }
        }
        var out = new HashMap<>(appSum);
        initPeak.forEach((uuid, peak) -> out.merge(
                uuid,
                peak,
                (app, init) -> new Grant(
                        Math.max(Math.max(app.slots(), init.slots()), 1),
                        Math.max(app.mem(), init.mem()),
                        Math.max(app.cores(), init.cores()))));
        return out;
    }
}
