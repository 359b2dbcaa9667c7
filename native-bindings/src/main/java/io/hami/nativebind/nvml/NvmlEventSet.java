package io.hami.nativebind.nvml;

import io.hami.nativebind.nvml.raw.nvmlEventData_t;
import io.hami.nativebind.nvml.raw.nvml_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An NVML event set the GPUs are registered in. Wait on it from one dedicated thread with a bounded
 * timeout (the NVIDIA plugin uses 5 s) so that shutdown can stop the loop; close it when done.
 */
public final class NvmlEventSet implements AutoCloseable {

    private final Nvml nvml;
    private final MemorySegment set;
    private final List<Integer> unwatchedDevices;
    private final AtomicBoolean closed = new AtomicBoolean();

    NvmlEventSet(Nvml nvml, MemorySegment set, List<Integer> unwatchedDevices) {
        this.nvml = nvml;
        this.set = set;
        this.unwatchedDevices = List.copyOf(unwatchedDevices);
    }

    /** Indexes of GPUs that support none of the requested event types: too old to health-check. */
    public List<Integer> unwatchedDevices() {
        return unwatchedDevices;
    }

    /**
     * The next event, or empty when none came within {@code timeout}. A lost GPU fails with
     * {@link Nvml#ERROR_GPU_IS_LOST}; the NVIDIA plugin then marks every device unhealthy.
     */
    public Optional<NvmlEvent> await(Duration timeout) {
        nvml_h raw = nvml.raw();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = nvmlEventData_t.allocate(arena);
            int rc = raw.nvmlEventSetWait_v2(set, data, (int) Math.min(timeout.toMillis(), Integer.MAX_VALUE));
            if (rc == nvml_h.NVML_ERROR_TIMEOUT()) {
                return Optional.empty();
            }
            nvml.check(rc, "nvmlEventSetWait_v2");
            MemorySegment device = nvmlEventData_t.device(data);
            MemorySegment index = arena.allocate(ValueLayout.JAVA_INT);
            nvml.check(raw.nvmlDeviceGetIndex(device, index), "nvmlDeviceGetIndex");
            return Optional.of(new NvmlEvent(
                    index.get(ValueLayout.JAVA_INT, 0),
                    nvml.uuid(arena, device),
                    nvmlEventData_t.eventType(data),
                    nvmlEventData_t.eventData(data),
                    nvmlEventData_t.gpuInstanceId(data),
                    nvmlEventData_t.computeInstanceId(data)));
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            nvml.check(nvml.raw().nvmlEventSetFree(set), "nvmlEventSetFree");
        }
    }
}
