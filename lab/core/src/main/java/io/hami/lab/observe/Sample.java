package io.hami.lab.observe;

import io.hami.lab.check.DeviceAccounting;
import java.time.Duration;
import java.util.Map;

/**
 * The cluster at one moment of the run.
 *
 * @param at      time since the run started
 * @param pods    pods per state
 * @param devices what the pods' allocations hold per device; empty for clusters too large to chart per device
 */
public record Sample(
        Duration at, Map<PodState, Integer> pods, Map<DeviceAccounting.DeviceKey, DeviceAccounting.Usage> devices) {
    public Sample {
        pods = Map.copyOf(pods);
        devices = Map.copyOf(devices);
    }

    public int count(PodState state) {
        return pods.getOrDefault(state, 0);
    }
}
