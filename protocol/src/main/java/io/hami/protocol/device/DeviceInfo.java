package io.hami.protocol.device;

import java.util.List;
import java.util.Objects;

/**
 * One physical (or capacity-synthesised) device as a node advertises it, in the register annotation or
 * derived from node Capacity. Field names and meanings follow upstream's {@code DeviceInfo}.
 *
 * @param id      device UUID (NVIDIA {@code GPU-...}) or synthetic ID ({@code <node>-cambricon-mlu-<i>})
 * @param index   position of the device on its node; never negative
 * @param count   how many tasks may share the device (the split count)
 * @param devmem  device memory in MiB
 * @param devcore compute capacity, 100 for a whole card (Moore Threads: 16)
 * @param type    model string, for example {@code NVIDIA-Tesla V100-PCIE-32GB}
 * @param numa    NUMA node, or {@link #NO_NUMA} when the device's library knows none
 * @param mode    sharing mode, for example {@code hami-core}; may be empty
 * @param health  whether the device plugin reported the device healthy
 * @param migProfiles the MIG profiles a {@code mig}-mode GPU offers (docs/mig-design.md §1.2); empty otherwise
 */
public record DeviceInfo(
        String id,
        int index,
        int count,
        int devmem,
        int devcore,
        String type,
        int numa,
        String mode,
        boolean health,
        List<MigProfile> migProfiles) {
    /**
     * The NUMA node of a device whose library knows none (upstream's plugins write {@code "numa":-1}): no NUMA
     * affinity, never a reason to leave the node out (design D9). Under {@code nvidia.com/numa-bind} such devices
     * group with each other, as upstream's walk compares them (docs/upstream.md#fit).
     */
    public static final int NO_NUMA = -1;

    public DeviceInfo {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(mode, "mode");
        migProfiles = List.copyOf(migProfiles);
        if (index < 0) {
            throw new IllegalArgumentException("index must not be negative: " + index);
        }
    }

    /** A device without MIG profiles, as every mode but {@code mig} publishes. */
    public DeviceInfo(
            String id,
            int index,
            int count,
            int devmem,
            int devcore,
            String type,
            int numa,
            String mode,
            boolean health) {
        this(id, index, count, devmem, devcore, type, numa, mode, health, List.of());
    }

    public DeviceInfo withHealth(boolean healthy) {
        return new DeviceInfo(id, index, count, devmem, devcore, type, numa, mode, healthy, migProfiles);
    }
}
