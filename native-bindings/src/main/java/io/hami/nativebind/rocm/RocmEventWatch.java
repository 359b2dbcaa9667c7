package io.hami.nativebind.rocm;

import io.hami.nativebind.NativeStrings;
import io.hami.nativebind.rocm.raw.rocm_smi_h;
import io.hami.nativebind.rocm.raw.rsmi_evt_notification_data_t;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/** Event notifications of every DCU; wait from one thread with a bounded timeout and close when done. */
public final class RocmEventWatch implements AutoCloseable {

    private static final int BATCH = 16;

    private final RocmSmi smi;
    private final int deviceCount;
    private final AtomicBoolean closed = new AtomicBoolean();

    RocmEventWatch(RocmSmi smi, int deviceCount) {
        this.smi = smi;
        this.deviceCount = deviceCount;
    }

    /** The events that arrived within {@code timeout}; empty when none did. */
    public List<RocmEvent> await(Duration timeout) {
        rocm_smi_h raw = smi.raw();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = rsmi_evt_notification_data_t.allocateArray(BATCH, arena);
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            count.set(ValueLayout.JAVA_INT, 0, BATCH);
            int rc =
                    raw.rsmi_event_notification_get((int) Math.min(timeout.toMillis(), Integer.MAX_VALUE), count, data);
            if (rc == rocm_smi_h.RSMI_STATUS_NO_DATA()) {
                return List.of();
            }
            smi.check(rc, "rsmi_event_notification_get");
            int n = Math.min(count.get(ValueLayout.JAVA_INT, 0), BATCH);
            List<RocmEvent> events = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                MemorySegment event = rsmi_evt_notification_data_t.asSlice(data, i);
                events.add(new RocmEvent(
                        rsmi_evt_notification_data_t.dv_ind(event),
                        rsmi_evt_notification_data_t.event(event),
                        NativeStrings.decode(rsmi_evt_notification_data_t.message(event))));
            }
            return List.copyOf(events);
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            for (int i = 0; i < deviceCount; i++) {
                smi.check(smi.raw().rsmi_event_notification_stop(i), "rsmi_event_notification_stop");
            }
        }
    }
}
