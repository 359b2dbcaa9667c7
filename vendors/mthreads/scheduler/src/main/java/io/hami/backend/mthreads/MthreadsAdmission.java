package io.hami.backend.mthreads;

import io.fabric8.kubernetes.api.model.Container;
import io.hami.protocol.quantity.ContainerResources;
import io.hami.protocol.quantity.ResourceAmount;
import io.hami.protocol.spi.Admission;
import java.util.List;
import java.util.Map;

/**
 * The Moore Threads webhook rules of docs/upstream.md#webhook: several GPUs are whole cards;
 * one GPU takes an sGPU memory size from a fixed list, or the whole card.
 */
final class MthreadsAdmission {
    /** Pod annotation upstream's Moore Threads plugin reads for multi-GPU pods. */
    static final String REQUEST_GPU_NUM = "mthreads.com/request-gpu-num";
    /** Memory units (512 MiB) of a whole GPU, as upstream's webhook sets them. */
    static final int MEMORY_UNITS_PER_GPU = 96;

    static final List<Long> MEMORY_SIZES = List.of(2L, 4L, 8L, 16L, 32L, 64L, 96L);

    private MthreadsAdmission() {}

    static Admission admit(Container c, MthreadsConfig cfg) {
        ResourceAmount count = ContainerResources.read(c, cfg.resourceCountName());
        if (!count.present()) {
            return Admission.NOT_REQUESTED;
        }
        long n = count.int64().orElse(0);
        if (n <= 0) {
            return new Admission.Rejected(
                    cfg.resourceCountName() + " must be greater than 0 in container " + c.getName());
        }
        String cores = Long.toString(n * MthreadsBackend.CORES_PER_DEVICE);
        String memory = Long.toString(n * MEMORY_UNITS_PER_GPU);
        if (n > 1) {
            return new Admission.Accepted(
                    true,
                    Map.of(cfg.resourceCoreName(), cores, cfg.resourceMemoryName(), memory),
                    Map.of(),
                    Map.of(REQUEST_GPU_NUM, Long.toString(n)));
        }
        var limits = c.getResources().getLimits();
        if (limits == null || !limits.containsKey(cfg.resourceMemoryName())) {
            return new Admission.Accepted(
                    true, Map.of(cfg.resourceCoreName(), cores, cfg.resourceMemoryName(), memory), Map.of(), Map.of());
        }
        var mem = ResourceAmount.of(limits.get(cfg.resourceMemoryName())).int64();
        if (mem.isEmpty() || !MEMORY_SIZES.contains(mem.getAsLong())) {
            return new Admission.Rejected(
                    "sGPU memory request value is invalid, valid values are [2, 4, 8, 16, 32, 64, 96]");
        }
        return new Admission.Accepted(true, Map.of(), Map.of(), Map.of());
    }
}
