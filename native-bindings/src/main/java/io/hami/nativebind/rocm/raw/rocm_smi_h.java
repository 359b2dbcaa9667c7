package io.hami.nativebind.rocm.raw;

import io.hami.nativebind.NativeLibrary;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * FFM binding of {@code hami_rocm_smi.h} in the shape jextract generates (ROCm SMI as shipped by Hygon, librocm_smi64.so.2).
 * Unlike jextract output it is bound to one loaded library instance instead of a static lookup, so that
 * several copies of a library (the lab's mock nodes) can live in one process. Each function's address is
 * looked up on its first call: a symbol missing from an older driver fails only when that function is used.
 * Keep logic out of this class; it mirrors the header.
 */
public final class rocm_smi_h {

    public static final ValueLayout.OfByte C_CHAR = (ValueLayout.OfByte) Linker.nativeLinker().canonicalLayouts().get("char");
    public static final ValueLayout.OfInt C_INT = (ValueLayout.OfInt) Linker.nativeLinker().canonicalLayouts().get("int");
    public static final ValueLayout.OfLong C_LONG = (ValueLayout.OfLong) Linker.nativeLinker().canonicalLayouts().get("long");
    /** Plain {@code void*}: no unbounded target layout, so wrappers must reinterpret returned strings with a bound. */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS;

    // enum rsmi_status_t
    public static int RSMI_STATUS_SUCCESS() { return 0; }
    public static int RSMI_STATUS_INVALID_ARGS() { return 1; }
    public static int RSMI_STATUS_NOT_SUPPORTED() { return 2; }
    public static int RSMI_STATUS_FILE_ERROR() { return 3; }
    public static int RSMI_STATUS_PERMISSION() { return 4; }
    public static int RSMI_STATUS_OUT_OF_RESOURCES() { return 5; }
    public static int RSMI_STATUS_INTERNAL_EXCEPTION() { return 6; }
    public static int RSMI_STATUS_INPUT_OUT_OF_BOUNDS() { return 7; }
    public static int RSMI_STATUS_INIT_ERROR() { return 8; }
    public static int RSMI_INITIALIZATION_ERROR() { return 8; }
    public static int RSMI_STATUS_NOT_YET_IMPLEMENTED() { return 9; }
    public static int RSMI_STATUS_NOT_FOUND() { return 10; }
    public static int RSMI_STATUS_INSUFFICIENT_SIZE() { return 11; }
    public static int RSMI_STATUS_INTERRUPT() { return 12; }
    public static int RSMI_STATUS_UNEXPECTED_SIZE() { return 13; }
    public static int RSMI_STATUS_NO_DATA() { return 14; }
    public static int RSMI_STATUS_UNEXPECTED_DATA() { return 15; }
    public static int RSMI_STATUS_BUSY() { return 16; }
    public static int RSMI_STATUS_REFCOUNT_OVERFLOW() { return 17; }
    public static int RSMI_STATUS_SETTING_UNAVAILABLE() { return 18; }
    public static int RSMI_STATUS_AMDGPU_RESTART_ERR() { return 19; }
    public static int RSMI_STATUS_UNKNOWN_ERROR() { return -1; }

    // enum rsmi_memory_type_t
    public static int RSMI_MEM_TYPE_FIRST() { return 0; }
    public static int RSMI_MEM_TYPE_VRAM() { return 0; }
    public static int RSMI_MEM_TYPE_VIS_VRAM() { return 1; }
    public static int RSMI_MEM_TYPE_GTT() { return 2; }
    public static int RSMI_MEM_TYPE_LAST() { return 2; }

    // enum rsmi_sw_component_t
    public static int RSMI_SW_COMP_FIRST() { return 0; }
    public static int RSMI_SW_COMP_DRIVER() { return 0; }
    public static int RSMI_SW_COMP_LAST() { return 0; }

    // enum rsmi_evt_notification_type_t
    public static int RSMI_EVT_NOTIF_VMFAULT() { return 1; }
    public static int RSMI_EVT_NOTIF_FIRST() { return 1; }
    public static int RSMI_EVT_NOTIF_THERMAL_THROTTLE() { return 2; }
    public static int RSMI_EVT_NOTIF_GPU_PRE_RESET() { return 3; }
    public static int RSMI_EVT_NOTIF_GPU_POST_RESET() { return 4; }
    public static int RSMI_EVT_NOTIF_LAST() { return 4; }

    // macros
    public static int MAX_EVENT_NOTIFICATION_MSG_SIZE() { return 64; }

    private final NativeLibrary library;
    private final NativeLibrary.Symbol rsmi_init$symbol;
    private final NativeLibrary.Symbol rsmi_shut_down$symbol;
    private final NativeLibrary.Symbol rsmi_status_string$symbol;
    private final NativeLibrary.Symbol rsmi_version_str_get$symbol;
    private final NativeLibrary.Symbol rsmi_num_monitor_devices$symbol;
    private final NativeLibrary.Symbol rsmi_dev_id_get$symbol;
    private final NativeLibrary.Symbol rsmi_dev_name_get$symbol;
    private final NativeLibrary.Symbol rsmi_dev_serial_number_get$symbol;
    private final NativeLibrary.Symbol rsmi_dev_unique_id_get$symbol;
    private final NativeLibrary.Symbol rsmi_dev_pci_id_get$symbol;
    private final NativeLibrary.Symbol rsmi_dev_memory_total_get$symbol;
    private final NativeLibrary.Symbol rsmi_dev_memory_usage_get$symbol;
    private final NativeLibrary.Symbol rsmi_dev_busy_percent_get$symbol;
    private final NativeLibrary.Symbol rsmi_dev_drm_render_minor_get$symbol;
    private final NativeLibrary.Symbol rsmi_topo_get_numa_node_number$symbol;
    private final NativeLibrary.Symbol rsmi_event_notification_init$symbol;
    private final NativeLibrary.Symbol rsmi_event_notification_mask_set$symbol;
    private final NativeLibrary.Symbol rsmi_event_notification_get$symbol;
    private final NativeLibrary.Symbol rsmi_event_notification_stop$symbol;

    public rocm_smi_h(NativeLibrary library) {
        this.library = library;
        this.rsmi_init$symbol = library.symbol("rsmi_init");
        this.rsmi_shut_down$symbol = library.symbol("rsmi_shut_down");
        this.rsmi_status_string$symbol = library.symbol("rsmi_status_string");
        this.rsmi_version_str_get$symbol = library.symbol("rsmi_version_str_get");
        this.rsmi_num_monitor_devices$symbol = library.symbol("rsmi_num_monitor_devices");
        this.rsmi_dev_id_get$symbol = library.symbol("rsmi_dev_id_get");
        this.rsmi_dev_name_get$symbol = library.symbol("rsmi_dev_name_get");
        this.rsmi_dev_serial_number_get$symbol = library.symbol("rsmi_dev_serial_number_get");
        this.rsmi_dev_unique_id_get$symbol = library.symbol("rsmi_dev_unique_id_get");
        this.rsmi_dev_pci_id_get$symbol = library.symbol("rsmi_dev_pci_id_get");
        this.rsmi_dev_memory_total_get$symbol = library.symbol("rsmi_dev_memory_total_get");
        this.rsmi_dev_memory_usage_get$symbol = library.symbol("rsmi_dev_memory_usage_get");
        this.rsmi_dev_busy_percent_get$symbol = library.symbol("rsmi_dev_busy_percent_get");
        this.rsmi_dev_drm_render_minor_get$symbol = library.symbol("rsmi_dev_drm_render_minor_get");
        this.rsmi_topo_get_numa_node_number$symbol = library.symbol("rsmi_topo_get_numa_node_number");
        this.rsmi_event_notification_init$symbol = library.symbol("rsmi_event_notification_init");
        this.rsmi_event_notification_mask_set$symbol = library.symbol("rsmi_event_notification_mask_set");
        this.rsmi_event_notification_get$symbol = library.symbol("rsmi_event_notification_get");
        this.rsmi_event_notification_stop$symbol = library.symbol("rsmi_event_notification_stop");
    }

    public NativeLibrary library() {
        return library;
    }

    private static final class rsmi_init {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_LONG);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_init$descriptor() {
        return rsmi_init.DESC;
    }

    public MemorySegment rsmi_init$address() {
        return rsmi_init$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_init(uint64_t init_flags)
     * }
     */
    public int rsmi_init(long init_flags) {
        try {
            return (int) rsmi_init.HANDLE.invokeExact(rsmi_init$address(), init_flags);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_shut_down {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_shut_down$descriptor() {
        return rsmi_shut_down.DESC;
    }

    public MemorySegment rsmi_shut_down$address() {
        return rsmi_shut_down$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_shut_down(void)
     * }
     */
    public int rsmi_shut_down() {
        try {
            return (int) rsmi_shut_down.HANDLE.invokeExact(rsmi_shut_down$address());
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_status_string {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_status_string$descriptor() {
        return rsmi_status_string.DESC;
    }

    public MemorySegment rsmi_status_string$address() {
        return rsmi_status_string$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_status_string(rsmi_status_t status, const char **status_string)
     * }
     */
    public int rsmi_status_string(int status, MemorySegment status_string) {
        try {
            return (int) rsmi_status_string.HANDLE.invokeExact(rsmi_status_string$address(), status, status_string);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_version_str_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_version_str_get$descriptor() {
        return rsmi_version_str_get.DESC;
    }

    public MemorySegment rsmi_version_str_get$address() {
        return rsmi_version_str_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_version_str_get(rsmi_sw_component_t component, char *ver_str, uint32_t len)
     * }
     */
    public int rsmi_version_str_get(int component, MemorySegment ver_str, int len) {
        try {
            return (int) rsmi_version_str_get.HANDLE.invokeExact(rsmi_version_str_get$address(), component, ver_str, len);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_num_monitor_devices {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_num_monitor_devices$descriptor() {
        return rsmi_num_monitor_devices.DESC;
    }

    public MemorySegment rsmi_num_monitor_devices$address() {
        return rsmi_num_monitor_devices$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_num_monitor_devices(uint32_t *num_devices)
     * }
     */
    public int rsmi_num_monitor_devices(MemorySegment num_devices) {
        try {
            return (int) rsmi_num_monitor_devices.HANDLE.invokeExact(rsmi_num_monitor_devices$address(), num_devices);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_dev_id_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_dev_id_get$descriptor() {
        return rsmi_dev_id_get.DESC;
    }

    public MemorySegment rsmi_dev_id_get$address() {
        return rsmi_dev_id_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_dev_id_get(uint32_t dv_ind, uint16_t *id)
     * }
     */
    public int rsmi_dev_id_get(int dv_ind, MemorySegment id) {
        try {
            return (int) rsmi_dev_id_get.HANDLE.invokeExact(rsmi_dev_id_get$address(), dv_ind, id);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_dev_name_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_LONG);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_dev_name_get$descriptor() {
        return rsmi_dev_name_get.DESC;
    }

    public MemorySegment rsmi_dev_name_get$address() {
        return rsmi_dev_name_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_dev_name_get(uint32_t dv_ind, char *name, size_t len)
     * }
     */
    public int rsmi_dev_name_get(int dv_ind, MemorySegment name, long len) {
        try {
            return (int) rsmi_dev_name_get.HANDLE.invokeExact(rsmi_dev_name_get$address(), dv_ind, name, len);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_dev_serial_number_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_dev_serial_number_get$descriptor() {
        return rsmi_dev_serial_number_get.DESC;
    }

    public MemorySegment rsmi_dev_serial_number_get$address() {
        return rsmi_dev_serial_number_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_dev_serial_number_get(uint32_t dv_ind, char *serial_num, uint32_t len)
     * }
     */
    public int rsmi_dev_serial_number_get(int dv_ind, MemorySegment serial_num, int len) {
        try {
            return (int) rsmi_dev_serial_number_get.HANDLE.invokeExact(rsmi_dev_serial_number_get$address(), dv_ind, serial_num, len);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_dev_unique_id_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_dev_unique_id_get$descriptor() {
        return rsmi_dev_unique_id_get.DESC;
    }

    public MemorySegment rsmi_dev_unique_id_get$address() {
        return rsmi_dev_unique_id_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_dev_unique_id_get(uint32_t dv_ind, uint64_t *id)
     * }
     */
    public int rsmi_dev_unique_id_get(int dv_ind, MemorySegment id) {
        try {
            return (int) rsmi_dev_unique_id_get.HANDLE.invokeExact(rsmi_dev_unique_id_get$address(), dv_ind, id);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_dev_pci_id_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_dev_pci_id_get$descriptor() {
        return rsmi_dev_pci_id_get.DESC;
    }

    public MemorySegment rsmi_dev_pci_id_get$address() {
        return rsmi_dev_pci_id_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_dev_pci_id_get(uint32_t dv_ind, uint64_t *bdfid)
     * }
     */
    public int rsmi_dev_pci_id_get(int dv_ind, MemorySegment bdfid) {
        try {
            return (int) rsmi_dev_pci_id_get.HANDLE.invokeExact(rsmi_dev_pci_id_get$address(), dv_ind, bdfid);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_dev_memory_total_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_dev_memory_total_get$descriptor() {
        return rsmi_dev_memory_total_get.DESC;
    }

    public MemorySegment rsmi_dev_memory_total_get$address() {
        return rsmi_dev_memory_total_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_dev_memory_total_get(uint32_t dv_ind, rsmi_memory_type_t mem_type, uint64_t *total)
     * }
     */
    public int rsmi_dev_memory_total_get(int dv_ind, int mem_type, MemorySegment total) {
        try {
            return (int) rsmi_dev_memory_total_get.HANDLE.invokeExact(rsmi_dev_memory_total_get$address(), dv_ind, mem_type, total);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_dev_memory_usage_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_dev_memory_usage_get$descriptor() {
        return rsmi_dev_memory_usage_get.DESC;
    }

    public MemorySegment rsmi_dev_memory_usage_get$address() {
        return rsmi_dev_memory_usage_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_dev_memory_usage_get(uint32_t dv_ind, rsmi_memory_type_t mem_type, uint64_t *used)
     * }
     */
    public int rsmi_dev_memory_usage_get(int dv_ind, int mem_type, MemorySegment used) {
        try {
            return (int) rsmi_dev_memory_usage_get.HANDLE.invokeExact(rsmi_dev_memory_usage_get$address(), dv_ind, mem_type, used);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_dev_busy_percent_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_dev_busy_percent_get$descriptor() {
        return rsmi_dev_busy_percent_get.DESC;
    }

    public MemorySegment rsmi_dev_busy_percent_get$address() {
        return rsmi_dev_busy_percent_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_dev_busy_percent_get(uint32_t dv_ind, uint32_t *busy_percent)
     * }
     */
    public int rsmi_dev_busy_percent_get(int dv_ind, MemorySegment busy_percent) {
        try {
            return (int) rsmi_dev_busy_percent_get.HANDLE.invokeExact(rsmi_dev_busy_percent_get$address(), dv_ind, busy_percent);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_dev_drm_render_minor_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_dev_drm_render_minor_get$descriptor() {
        return rsmi_dev_drm_render_minor_get.DESC;
    }

    public MemorySegment rsmi_dev_drm_render_minor_get$address() {
        return rsmi_dev_drm_render_minor_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_dev_drm_render_minor_get(uint32_t dv_ind, uint32_t *minor)
     * }
     */
    public int rsmi_dev_drm_render_minor_get(int dv_ind, MemorySegment minor) {
        try {
            return (int) rsmi_dev_drm_render_minor_get.HANDLE.invokeExact(rsmi_dev_drm_render_minor_get$address(), dv_ind, minor);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_topo_get_numa_node_number {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_topo_get_numa_node_number$descriptor() {
        return rsmi_topo_get_numa_node_number.DESC;
    }

    public MemorySegment rsmi_topo_get_numa_node_number$address() {
        return rsmi_topo_get_numa_node_number$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_topo_get_numa_node_number(uint32_t dv_ind, uint32_t *numa_node)
     * }
     */
    public int rsmi_topo_get_numa_node_number(int dv_ind, MemorySegment numa_node) {
        try {
            return (int) rsmi_topo_get_numa_node_number.HANDLE.invokeExact(rsmi_topo_get_numa_node_number$address(), dv_ind, numa_node);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_event_notification_init {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_event_notification_init$descriptor() {
        return rsmi_event_notification_init.DESC;
    }

    public MemorySegment rsmi_event_notification_init$address() {
        return rsmi_event_notification_init$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_event_notification_init(uint32_t dv_ind)
     * }
     */
    public int rsmi_event_notification_init(int dv_ind) {
        try {
            return (int) rsmi_event_notification_init.HANDLE.invokeExact(rsmi_event_notification_init$address(), dv_ind);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_event_notification_mask_set {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_LONG);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_event_notification_mask_set$descriptor() {
        return rsmi_event_notification_mask_set.DESC;
    }

    public MemorySegment rsmi_event_notification_mask_set$address() {
        return rsmi_event_notification_mask_set$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_event_notification_mask_set(uint32_t dv_ind, uint64_t mask)
     * }
     */
    public int rsmi_event_notification_mask_set(int dv_ind, long mask) {
        try {
            return (int) rsmi_event_notification_mask_set.HANDLE.invokeExact(rsmi_event_notification_mask_set$address(), dv_ind, mask);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_event_notification_get {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_event_notification_get$descriptor() {
        return rsmi_event_notification_get.DESC;
    }

    public MemorySegment rsmi_event_notification_get$address() {
        return rsmi_event_notification_get$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_event_notification_get(int timeout_ms, uint32_t *num_elem, rsmi_evt_notification_data_t *data)
     * }
     */
    public int rsmi_event_notification_get(int timeout_ms, MemorySegment num_elem, MemorySegment data) {
        try {
            return (int) rsmi_event_notification_get.HANDLE.invokeExact(rsmi_event_notification_get$address(), timeout_ms, num_elem, data);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class rsmi_event_notification_stop {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor rsmi_event_notification_stop$descriptor() {
        return rsmi_event_notification_stop.DESC;
    }

    public MemorySegment rsmi_event_notification_stop$address() {
        return rsmi_event_notification_stop$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * rsmi_status_t rsmi_event_notification_stop(uint32_t dv_ind)
     * }
     */
    public int rsmi_event_notification_stop(int dv_ind) {
        try {
            return (int) rsmi_event_notification_stop.HANDLE.invokeExact(rsmi_event_notification_stop$address(), dv_ind);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }
}
