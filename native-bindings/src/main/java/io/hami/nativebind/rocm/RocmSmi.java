package io.hami.nativebind.rocm;

import io.hami.nativebind.NativeLibrary;
import io.hami.nativebind.NativeStrings;
import io.hami.nativebind.VendorStatusException;
import io.hami.nativebind.rocm.raw.rocm_smi_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Hygon's ROCm SMI for a device plugin: DCUs are plain indexes. Errors surface as
 * {@link VendorStatusException} with the library's own status text. Thread-safe.
 */
public final class RocmSmi implements AutoCloseable {

    public static final String SONAME = "librocm_smi64.so.2";
    static final String VENDOR = "ROCm SMI";
    /** What the wrapper calls first: a file without them is no usable library, checked before it is loaded. */
    static final List<String> REQUIRED = List.of("rsmi_init", "rsmi_status_string", "rsmi_shut_down");

    public static final int EVENT_VMFAULT = rocm_smi_h.RSMI_EVT_NOTIF_VMFAULT();
    public static final int EVENT_THERMAL_THROTTLE = rocm_smi_h.RSMI_EVT_NOTIF_THERMAL_THROTTLE();
    public static final int EVENT_GPU_PRE_RESET = rocm_smi_h.RSMI_EVT_NOTIF_GPU_PRE_RESET();
    public static final int EVENT_GPU_POST_RESET = rocm_smi_h.RSMI_EVT_NOTIF_GPU_POST_RESET();

    private final rocm_smi_h smi;
    private final AtomicBoolean closed = new AtomicBoolean();

    private RocmSmi(rocm_smi_h smi) {
        this.smi = smi;
    }

    public static RocmSmi open() {
        return init(NativeLibrary.open(VENDOR, SONAME, REQUIRED));
    }

    public static RocmSmi open(Path library) {
        return init(NativeLibrary.open(VENDOR, library, REQUIRED));
    }

    private static RocmSmi init(NativeLibrary library) {
        RocmSmi smi = new RocmSmi(new rocm_smi_h(library));
        smi.check(smi.smi.rsmi_init(0), "rsmi_init");
        return smi;
    }

    public String driverVersion() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(256);
            check(
                    smi.rsmi_version_str_get(rocm_smi_h.RSMI_SW_COMP_DRIVER(), buffer, (int) buffer.byteSize()),
                    "rsmi_version_str_get");
            return NativeStrings.decode(buffer);
        }
    }

    public int deviceCount() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            check(smi.rsmi_num_monitor_devices(count), "rsmi_num_monitor_devices");
            return count.get(ValueLayout.JAVA_INT, 0);
        }
    }

    public List<RocmDevice> devices() {
        int count = deviceCount();
        List<RocmDevice> devices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            devices.add(device(i));
        }
        return List.copyOf(devices);
    }

    public RocmDevice device(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment serial = arena.allocate(256);
            check(smi.rsmi_dev_serial_number_get(index, serial, (int) serial.byteSize()), "rsmi_dev_serial_number_get");
            MemorySegment name = arena.allocate(256);
            check(smi.rsmi_dev_name_get(index, name, name.byteSize()), "rsmi_dev_name_get");
            MemorySegment id = arena.allocate(ValueLayout.JAVA_SHORT);
            check(smi.rsmi_dev_id_get(index, id), "rsmi_dev_id_get");
            MemorySegment longs = arena.allocate(ValueLayout.JAVA_LONG, 4);
            check(smi.rsmi_dev_unique_id_get(index, longs), "rsmi_dev_unique_id_get");
            check(smi.rsmi_dev_pci_id_get(index, longs.asSlice(8)), "rsmi_dev_pci_id_get");
            int vram = rocm_smi_h.RSMI_MEM_TYPE_VRAM();
            check(smi.rsmi_dev_memory_total_get(index, vram, longs.asSlice(16)), "rsmi_dev_memory_total_get");
            check(smi.rsmi_dev_memory_usage_get(index, vram, longs.asSlice(24)), "rsmi_dev_memory_usage_get");
            MemorySegment minor = arena.allocate(ValueLayout.JAVA_INT);
            check(smi.rsmi_dev_drm_render_minor_get(index, minor), "rsmi_dev_drm_render_minor_get");
            return new RocmDevice(
                    index,
                    new RocmDevice.Identity(
                            NativeStrings.decode(serial),
                            NativeStrings.decode(name),
                            Short.toUnsignedInt(id.get(ValueLayout.JAVA_SHORT, 0)),
                            longs.getAtIndex(ValueLayout.JAVA_LONG, 0)),
                    new RocmDevice.Memory(
                            longs.getAtIndex(ValueLayout.JAVA_LONG, 2), longs.getAtIndex(ValueLayout.JAVA_LONG, 3)),
                    new RocmDevice.Location(
                            RocmDevice.busId(longs.getAtIndex(ValueLayout.JAVA_LONG, 1)),
                            numaNode(arena, index),
                            minor.get(ValueLayout.JAVA_INT, 0)));
        }
    }

    /** Percent of time the DCU was busy. */
    public int busyPercent(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment busy = arena.allocate(ValueLayout.JAVA_INT);
            check(smi.rsmi_dev_busy_percent_get(index, busy), "rsmi_dev_busy_percent_get");
            return busy.get(ValueLayout.JAVA_INT, 0);
        }
    }

    /** Enables notification of the given event types (e.g. {@link #EVENT_GPU_PRE_RESET}) on every DCU. */
    public RocmEventWatch watch(int... eventTypes) {
        long mask = 0;
        for (int type : eventTypes) {
            mask |= 1L << (type - 1); // RSMI_EVENT_MASK_FROM_INDEX
        }
        int count = deviceCount();
        for (int i = 0; i < count; i++) {
            check(smi.rsmi_event_notification_init(i), "rsmi_event_notification_init");
            check(smi.rsmi_event_notification_mask_set(i, mask), "rsmi_event_notification_mask_set");
        }
        return new RocmEventWatch(this, count);
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            check(smi.rsmi_shut_down(), "rsmi_shut_down");
        }
    }

    rocm_smi_h raw() {
        return smi;
    }

    private int numaNode(Arena arena, int index) {
        MemorySegment node = arena.allocate(ValueLayout.JAVA_INT);
        int rc = smi.rsmi_topo_get_numa_node_number(index, node);
        if (rc == rocm_smi_h.RSMI_STATUS_NOT_SUPPORTED()) {
            return -1;
        }
        check(rc, "rsmi_topo_get_numa_node_number");
        return node.get(ValueLayout.JAVA_INT, 0);
    }

    void check(int rc, String function) {
        if (rc == rocm_smi_h.RSMI_STATUS_SUCCESS()) {
            return;
        }
        String text = "unknown error " + rc;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            if (smi.rsmi_status_string(rc, out) == rocm_smi_h.RSMI_STATUS_SUCCESS()) {
                text = NativeStrings.decodePointer(out.get(ValueLayout.ADDRESS, 0), text);
            }
        }
        throw new VendorStatusException(VENDOR, function, rc, text);
    }
}
