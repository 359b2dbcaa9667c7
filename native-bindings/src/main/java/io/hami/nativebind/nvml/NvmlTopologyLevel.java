package io.hami.nativebind.nvml;

import io.hami.nativebind.nvml.raw.nvml_h;
import java.util.Optional;

/**
 * {@code nvmlGpuTopologyLevel_t}: the closest common ancestor of two GPUs on the PCIe tree, nearest first. NVML spaces
 * the codes by 10 to leave room for levels it may add.
 */
public enum NvmlTopologyLevel {
    /** On one board (e.g. Tesla K80). */
    INTERNAL(nvml_h.NVML_TOPOLOGY_INTERNAL()),
    /** Through a single PCIe switch. */
    SINGLE(nvml_h.NVML_TOPOLOGY_SINGLE()),
    /** Through several PCIe switches, without a host bridge. */
    MULTIPLE(nvml_h.NVML_TOPOLOGY_MULTIPLE()),
    /** Through one host bridge. */
    HOSTBRIDGE(nvml_h.NVML_TOPOLOGY_HOSTBRIDGE()),
    /** Within one NUMA node across host bridges (NVML's former {@code NVML_TOPOLOGY_CPU}). */
    NODE(nvml_h.NVML_TOPOLOGY_NODE()),
    /** Across NUMA nodes. */
    SYSTEM(nvml_h.NVML_TOPOLOGY_SYSTEM());

    private final int code;

    NvmlTopologyLevel(int code) {
        this.code = code;
    }

    /** The C enum value. */
    public int code() {
        return code;
    }

    /** The level of a C enum value; empty for one this binding does not know. */
    public static Optional<NvmlTopologyLevel> of(int code) {
        for (NvmlTopologyLevel level : values()) {
            if (level.code == code) {
                return Optional.of(level);
            }
        }
        return Optional.empty();
    }
}
