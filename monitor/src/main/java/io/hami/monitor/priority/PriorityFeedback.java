package io.hami.monitor.priority;

import io.hami.monitor.scan.ContainerRegion;
import io.hami.nativebind.hamicore.Control;
import io.hami.nativebind.hamicore.DeviceShare;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Upstream's priority feedback ("Observe" of the vGPU monitor), run once per scan. HAMi-core sets a container's
 * {@code recent_kernel} when it launches kernels and waits while it is negative; it throttles harder while
 * {@code utilization_switch} is 1. Priority 0 is high, 1 low (HAMi-core's {@code CUDA_TASK_PRIORITY}).
 *
 * <ol>
 *   <li>Every positive {@code recent_kernel} is decremented; a container still positive after that is active on
 *       each of its devices at its priority.
 *   <li>A container on a device where a container of a higher priority (a lower number) is active is blocked:
 *       {@code recent_kernel} -1. Otherwise a blocked one is released: 0.
 *   <li>{@code utilization_switch} is 1 while a higher priority, or another container of the same priority, is
 *       active on one of its devices, else 0.
 * </ol>
 *
 * <p>Upstream checks only the first of a container's devices that has active containers; this checks all of
 * them, so a container is blocked on whichever of its devices the higher priority uses.
 */
public final class PriorityFeedback {
    private PriorityFeedback() {}

    /** The writes that bring {@code containers} to their next state; none for a container whose fields stay. */
    public static List<ControlWrite> decide(List<ContainerRegion> containers) {
        int n = containers.size();
        int[] recent = new int[n];
        // Per device UUID, how many containers are active at each priority.
        Map<String, int[]> active = new HashMap<>();
        for (int i = 0; i < n; i++) {
            Control control = containers.get(i).region().control();
            int r = control.recentKernel();
            if (r > 0) {
                r--;
                if (r > 0 && control.priority() >= 0) {
                    for (String uuid : uuids(containers.get(i))) {
                        int[] counts = active.computeIfAbsent(uuid, u -> new int[2]);
                        if (control.priority() >= counts.length) {
                            counts = java.util.Arrays.copyOf(counts, control.priority() + 1);
                            active.put(uuid, counts);
                        }
                        counts[control.priority()]++;
                    }
                }
            }
            recent[i] = r;
        }
        var writes = new ArrayList<ControlWrite>();
        for (int i = 0; i < n; i++) {
            ContainerRegion c = containers.get(i);
            Control control = c.region().control();
            int priority = control.priority();
            int r = recent[i];
            if (higherActive(active, priority, c)) {
                if (r >= 0) {
                    r = -1;
                }
            } else if (r < 0) {
                r = 0;
            }
            int utilizationSwitch = contended(active, priority, c) ? 1 : 0;
            if (r != control.recentKernel() || utilizationSwitch != control.utilizationSwitch()) {
                writes.add(new ControlWrite(c.file(), r, utilizationSwitch));
            }
        }
        return writes;
    }

    private static boolean higherActive(Map<String, int[]> active, int priority, ContainerRegion c) {
        for (String uuid : uuids(c)) {
            int[] counts = active.get(uuid);
            if (counts != null && activeAbove(counts, priority)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contended(Map<String, int[]> active, int priority, ContainerRegion c) {
        for (String uuid : uuids(c)) {
            int[] counts = active.get(uuid);
            if (counts != null
                    && (activeAbove(counts, priority)
                            || (priority >= 0 && priority < counts.length && counts[priority] > 1))) {
                return true;
            }
        }
        return false;
    }

    /** Whether a priority higher than {@code priority} (a smaller number) is active. */
    private static boolean activeAbove(int[] counts, int priority) {
        for (int p = 0; p < Math.min(priority, counts.length); p++) {
            if (counts[p] > 0) {
                return true;
            }
        }
        return false;
    }

    /** The container's device UUIDs; an empty slot (HAMi-core not yet initialised it) is no device. */
    private static List<String> uuids(ContainerRegion c) {
        var uuids = new ArrayList<String>(c.region().devices().size());
        for (DeviceShare d : c.region().devices()) {
            if (d.uuid() != null && !d.uuid().isEmpty()) {
                uuids.add(d.uuid());
            }
        }
        return uuids;
    }
}
