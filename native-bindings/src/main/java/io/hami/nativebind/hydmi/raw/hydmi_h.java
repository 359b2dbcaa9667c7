package io.hami.nativebind.hydmi.raw;

import io.hami.nativebind.NativeLibrary;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * FFM binding of {@code hami_hydmi.h} in the shape jextract generates (Hygon DCU Management Interface, libhydmi.so.1).
 * Unlike jextract output it is bound to one loaded library instance instead of a static lookup, so that
 * several copies of a library (the lab's mock nodes) can live in one process. Each function's address is
 * looked up on its first call: a symbol missing from an older driver fails only when that function is used.
 * Keep logic out of this class; it mirrors the header.
 */
public final class hydmi_h {

    public static final ValueLayout.OfByte C_CHAR = (ValueLayout.OfByte) Linker.nativeLinker().canonicalLayouts().get("char");
    public static final ValueLayout.OfInt C_INT = (ValueLayout.OfInt) Linker.nativeLinker().canonicalLayouts().get("int");
    public static final ValueLayout.OfLong C_LONG = (ValueLayout.OfLong) Linker.nativeLinker().canonicalLayouts().get("long");
    /** Plain {@code void*}: no unbounded target layout, so wrappers must reinterpret returned strings with a bound. */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS;

    // enum dmiStatus
    public static int DMI_STATUS_SUCCESS() { return 0; }
    public static int DMI_STATUS_ERROR() { return 1; }
    public static int DMI_STATUS_NO_MEMORY() { return 2; }
    public static int DMI_STATUS_OPEN_MKFD_FAILED() { return 3; }
    public static int DMI_STATUS_MKFD_ALREADY_OPENED() { return 4; }
    public static int DMI_STATUS_SYS_NODE_NOT_EXIST() { return 5; }
    public static int DMI_STATUS_NOT_SUPPORTED() { return 6; }
    public static int DMI_STATUS_MKFD_NOT_OPENED() { return 7; }
    public static int DMI_STATUS_CREATE_VDEV_FAILED() { return 8; }
    public static int DMI_STATUS_DESTROY_VDEV_FAILED() { return 9; }
    public static int DMI_STATUS_INVALID_ARGUMENTS() { return 10; }
    public static int DMI_STATUS_OUT_OF_RESOURCES() { return 11; }
    public static int DMI_STATUS_QUERY_VDEV_INFO_FAILED() { return 12; }
    public static int DMI_STATUS_ERROR_NOT_INITIALIZED() { return 13; }
    public static int DMI_STATUS_DEVICE_NOT_SUPPORT() { return 14; }
    public static int DMI_STATUS_VDEV_NOT_EXIST() { return 15; }
    public static int DMI_STATUS_INIT_DEVICE_FAILED() { return 16; }
    public static int DMI_STATUS_DEVICE_BUSY() { return 17; }
    public static int DMI_STATUS_FILE_ERROR() { return 18; }
    public static int DMI_STATUS_PERMISSION() { return 19; }
    public static int DMI_STATUS_INTERNAL_EXCEPTION() { return 20; }
    public static int DMI_STATUS_INPUT_OUT_OF_BOUNDS() { return 21; }
    public static int DMI_STATUS_SMI_INIT_ERROR() { return 22; }
    public static int DMI_STATUS_NOT_FOUND() { return 23; }
    public static int DMI_STATUS_INSUFFICIENT_SIZE() { return 24; }
    public static int DMI_STATUS_INTERRUPT() { return 25; }
    public static int DMI_STATUS_UNEXPECTED_SIZE() { return 26; }
    public static int DMI_STATUS_NO_DATA() { return 27; }
    public static int DMI_STATUS_UNEXPECTED_DATA() { return 28; }
    public static int DMI_STATUS_SMI_BUSY() { return 29; }
    public static int DMI_STATUS_REFCOUNT_OVERFLOW() { return 30; }
    public static int DMI_STATUS_NOT_YET_IMPLEMENTED() { return 31; }
    public static int DMI_STATUS_UNKNOWN_ERROR() { return 32; }

    // macros
    public static int DMI_NAME_SIZE() { return 256; }

    private final NativeLibrary library;
    private final NativeLibrary.Symbol dmiGetDeviceCount$symbol;
    private final NativeLibrary.Symbol dmiGetDeviceInfo$symbol;
    private final NativeLibrary.Symbol dmiGetDeviceRemainingInfo$symbol;
    private final NativeLibrary.Symbol dmiGetStatusString$symbol;
    private final NativeLibrary.Symbol dmiGetMaxVDeviceCount$symbol;
    private final NativeLibrary.Symbol dmiGetVDeviceCount$symbol;
    private final NativeLibrary.Symbol dmiGetVDeviceInfo$symbol;
    private final NativeLibrary.Symbol dmiCreateVDevices$symbol;
    private final NativeLibrary.Symbol dmiDestroyVDevices$symbol;
    private final NativeLibrary.Symbol dmiDestroySingleVDevice$symbol;

    public hydmi_h(NativeLibrary library) {
        this.library = library;
        this.dmiGetDeviceCount$symbol = library.symbol("dmiGetDeviceCount");
        this.dmiGetDeviceInfo$symbol = library.symbol("dmiGetDeviceInfo");
        this.dmiGetDeviceRemainingInfo$symbol = library.symbol("dmiGetDeviceRemainingInfo");
        this.dmiGetStatusString$symbol = library.symbol("dmiGetStatusString");
        this.dmiGetMaxVDeviceCount$symbol = library.symbol("dmiGetMaxVDeviceCount");
        this.dmiGetVDeviceCount$symbol = library.symbol("dmiGetVDeviceCount");
        this.dmiGetVDeviceInfo$symbol = library.symbol("dmiGetVDeviceInfo");
        this.dmiCreateVDevices$symbol = library.symbol("dmiCreateVDevices");
        this.dmiDestroyVDevices$symbol = library.symbol("dmiDestroyVDevices");
        this.dmiDestroySingleVDevice$symbol = library.symbol("dmiDestroySingleVDevice");
    }

    public NativeLibrary library() {
        return library;
    }

    private static final class dmiGetDeviceCount {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor dmiGetDeviceCount$descriptor() {
        return dmiGetDeviceCount.DESC;
    }

    public MemorySegment dmiGetDeviceCount$address() {
        return dmiGetDeviceCount$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * dmiStatus dmiGetDeviceCount(int *count)
     * }
     */
    public int dmiGetDeviceCount(MemorySegment count) {
        try {
            return (int) dmiGetDeviceCount.HANDLE.invokeExact(dmiGetDeviceCount$address(), count);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class dmiGetDeviceInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor dmiGetDeviceInfo$descriptor() {
        return dmiGetDeviceInfo.DESC;
    }

    public MemorySegment dmiGetDeviceInfo$address() {
        return dmiGetDeviceInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * dmiStatus dmiGetDeviceInfo(int device_id, dmiDeviceInfo *device_info)
     * }
     */
    public int dmiGetDeviceInfo(int device_id, MemorySegment device_info) {
        try {
            return (int) dmiGetDeviceInfo.HANDLE.invokeExact(dmiGetDeviceInfo$address(), device_id, device_info);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class dmiGetDeviceRemainingInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor dmiGetDeviceRemainingInfo$descriptor() {
        return dmiGetDeviceRemainingInfo.DESC;
    }

    public MemorySegment dmiGetDeviceRemainingInfo$address() {
        return dmiGetDeviceRemainingInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * dmiStatus dmiGetDeviceRemainingInfo(int device_id, size_t *cus, size_t *memories)
     * }
     */
    public int dmiGetDeviceRemainingInfo(int device_id, MemorySegment cus, MemorySegment memories) {
        try {
            return (int) dmiGetDeviceRemainingInfo.HANDLE.invokeExact(dmiGetDeviceRemainingInfo$address(), device_id, cus, memories);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class dmiGetStatusString {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor dmiGetStatusString$descriptor() {
        return dmiGetStatusString.DESC;
    }

    public MemorySegment dmiGetStatusString$address() {
        return dmiGetStatusString$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * dmiStatus dmiGetStatusString(dmiStatus status, const char **status_string)
     * }
     */
    public int dmiGetStatusString(int status, MemorySegment status_string) {
        try {
            return (int) dmiGetStatusString.HANDLE.invokeExact(dmiGetStatusString$address(), status, status_string);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class dmiGetMaxVDeviceCount {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor dmiGetMaxVDeviceCount$descriptor() {
        return dmiGetMaxVDeviceCount.DESC;
    }

    public MemorySegment dmiGetMaxVDeviceCount$address() {
        return dmiGetMaxVDeviceCount$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * dmiStatus dmiGetMaxVDeviceCount(int *count)
     * }
     */
    public int dmiGetMaxVDeviceCount(MemorySegment count) {
        try {
            return (int) dmiGetMaxVDeviceCount.HANDLE.invokeExact(dmiGetMaxVDeviceCount$address(), count);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class dmiGetVDeviceCount {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor dmiGetVDeviceCount$descriptor() {
        return dmiGetVDeviceCount.DESC;
    }

    public MemorySegment dmiGetVDeviceCount$address() {
        return dmiGetVDeviceCount$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * dmiStatus dmiGetVDeviceCount(int *count)
     * }
     */
    public int dmiGetVDeviceCount(MemorySegment count) {
        try {
            return (int) dmiGetVDeviceCount.HANDLE.invokeExact(dmiGetVDeviceCount$address(), count);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class dmiGetVDeviceInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor dmiGetVDeviceInfo$descriptor() {
        return dmiGetVDeviceInfo.DESC;
    }

    public MemorySegment dmiGetVDeviceInfo$address() {
        return dmiGetVDeviceInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * dmiStatus dmiGetVDeviceInfo(int vdevice_id, dmiDeviceInfo *device_info)
     * }
     */
    public int dmiGetVDeviceInfo(int vdevice_id, MemorySegment device_info) {
        try {
            return (int) dmiGetVDeviceInfo.HANDLE.invokeExact(dmiGetVDeviceInfo$address(), vdevice_id, device_info);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class dmiCreateVDevices {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor dmiCreateVDevices$descriptor() {
        return dmiCreateVDevices.DESC;
    }

    public MemorySegment dmiCreateVDevices$address() {
        return dmiCreateVDevices$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * dmiStatus dmiCreateVDevices(int device_id, int vdev_count, int *vdev_cus, int *vdev_mem_size)
     * }
     */
    public int dmiCreateVDevices(int device_id, int vdev_count, MemorySegment vdev_cus, MemorySegment vdev_mem_size) {
        try {
            return (int) dmiCreateVDevices.HANDLE.invokeExact(dmiCreateVDevices$address(), device_id, vdev_count, vdev_cus, vdev_mem_size);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class dmiDestroyVDevices {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor dmiDestroyVDevices$descriptor() {
        return dmiDestroyVDevices.DESC;
    }

    public MemorySegment dmiDestroyVDevices$address() {
        return dmiDestroyVDevices$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * dmiStatus dmiDestroyVDevices(int device_id)
     * }
     */
    public int dmiDestroyVDevices(int device_id) {
        try {
            return (int) dmiDestroyVDevices.HANDLE.invokeExact(dmiDestroyVDevices$address(), device_id);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class dmiDestroySingleVDevice {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor dmiDestroySingleVDevice$descriptor() {
        return dmiDestroySingleVDevice.DESC;
    }

    public MemorySegment dmiDestroySingleVDevice$address() {
        return dmiDestroySingleVDevice$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * dmiStatus dmiDestroySingleVDevice(int vdevice_id)
     * }
     */
    public int dmiDestroySingleVDevice(int vdevice_id) {
        try {
            return (int) dmiDestroySingleVDevice.HANDLE.invokeExact(dmiDestroySingleVDevice$address(), vdevice_id);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }
}
