package io.hami.protocol.device;

import java.util.Objects;
import java.util.Optional;

/**
 * One MIG reservation of a pod, an entry of {@code hami.io/vgpu-mig-allocations} (upstream's {@code MigAllocation},
 * docs/mig-design.md §1.3): the scheduler reserves a profile at a placement on a physical GPU for one device of one
 * container; the plugin adds the runtime identity once it created the instance.
 *
 * @param containerIndex the container's position in the pod, init containers first
 * @param deviceIndex    the device's position in that container's device list
 * @param gpuUuid        the physical GPU, {@code GPU-...}; never empty
 * @param profile        the MIG profile name, for example {@code 1g.5gb}; never empty
 * @param placement      where on the GPU; its size is never 0
 * @param runtime        what the plugin created, once it did
 */
public record MigAllocation(
        int containerIndex,
        int deviceIndex,
        String gpuUuid,
        String profile,
        MigPlacement placement,
        Optional<Runtime> runtime) {

    /**
     * The instance the plugin created: all three fields or none (upstream refuses a partial identity).
     *
     * @param migUuid           the MIG device's UUID, {@code MIG-...}; never empty
     * @param gpuInstanceId     the GPU instance id, a uint32 (0 is a valid id)
     * @param computeInstanceId the compute instance id, a uint32 (0 is a valid id)
     */
    public record Runtime(String migUuid, long gpuInstanceId, long computeInstanceId) {
        public Runtime {
            if (migUuid == null || migUuid.isEmpty()) {
                throw new IllegalArgumentException("a MIG runtime identity needs a MIG UUID");
            }
            if (gpuInstanceId < 0
                    || gpuInstanceId > MigPlacement.MAX_UINT32
                    || computeInstanceId < 0
                    || computeInstanceId > MigPlacement.MAX_UINT32) {
                throw new IllegalArgumentException(
                        "MIG instance ids out of uint32 range: " + gpuInstanceId + ", " + computeInstanceId);
            }
        }
    }

    public MigAllocation {
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(runtime, "runtime");
        if (containerIndex < 0 || deviceIndex < 0) {
            throw new IllegalArgumentException("negative MIG allocation index: " + containerIndex + ", " + deviceIndex);
        }
        if (gpuUuid == null || gpuUuid.isEmpty() || profile == null || profile.isEmpty() || placement.size() == 0) {
            throw new IllegalArgumentException(
                    "incomplete MIG allocation: " + gpuUuid + ", " + profile + ", " + placement);
        }
    }

    /** A reservation the plugin has not realised yet. */
    public MigAllocation(int containerIndex, int deviceIndex, String gpuUuid, String profile, MigPlacement placement) {
        this(containerIndex, deviceIndex, gpuUuid, profile, placement, Optional.empty());
    }
}
