package io.hami.nativebind.nvml.raw;

import io.hami.nativebind.NativeLibrary;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * FFM binding of {@code hami_nvml.h} in the shape jextract generates (NVIDIA NVML, libnvidia-ml.so.1).
 * Unlike jextract output it is bound to one loaded library instance instead of a static lookup, so that
 * several copies of a library (the lab's mock nodes) can live in one process. Each function's address is
 * looked up on its first call: a symbol missing from an older driver fails only when that function is used.
 * Keep logic out of this class; it mirrors the header.
 */
public final class nvml_h {

    public static final ValueLayout.OfByte C_CHAR = (ValueLayout.OfByte) Linker.nativeLinker().canonicalLayouts().get("char");
    public static final ValueLayout.OfInt C_INT = (ValueLayout.OfInt) Linker.nativeLinker().canonicalLayouts().get("int");
    public static final ValueLayout.OfLong C_LONG_LONG = (ValueLayout.OfLong) Linker.nativeLinker().canonicalLayouts().get("long long");
    /** Plain {@code void*}: no unbounded target layout, so wrappers must reinterpret returned strings with a bound. */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS;

    // enum nvmlReturn_t
    public static int NVML_SUCCESS() { return 0; }
    public static int NVML_ERROR_UNINITIALIZED() { return 1; }
    public static int NVML_ERROR_INVALID_ARGUMENT() { return 2; }
    public static int NVML_ERROR_NOT_SUPPORTED() { return 3; }
    public static int NVML_ERROR_NO_PERMISSION() { return 4; }
    public static int NVML_ERROR_ALREADY_INITIALIZED() { return 5; }
    public static int NVML_ERROR_NOT_FOUND() { return 6; }
    public static int NVML_ERROR_INSUFFICIENT_SIZE() { return 7; }
    public static int NVML_ERROR_INSUFFICIENT_POWER() { return 8; }
    public static int NVML_ERROR_DRIVER_NOT_LOADED() { return 9; }
    public static int NVML_ERROR_TIMEOUT() { return 10; }
    public static int NVML_ERROR_IRQ_ISSUE() { return 11; }
    public static int NVML_ERROR_LIBRARY_NOT_FOUND() { return 12; }
    public static int NVML_ERROR_FUNCTION_NOT_FOUND() { return 13; }
    public static int NVML_ERROR_CORRUPTED_INFOROM() { return 14; }
    public static int NVML_ERROR_GPU_IS_LOST() { return 15; }
    public static int NVML_ERROR_RESET_REQUIRED() { return 16; }
    public static int NVML_ERROR_OPERATING_SYSTEM() { return 17; }
    public static int NVML_ERROR_LIB_RM_VERSION_MISMATCH() { return 18; }
    public static int NVML_ERROR_IN_USE() { return 19; }
    public static int NVML_ERROR_MEMORY() { return 20; }
    public static int NVML_ERROR_NO_DATA() { return 21; }
    public static int NVML_ERROR_VGPU_ECC_NOT_SUPPORTED() { return 22; }
    public static int NVML_ERROR_INSUFFICIENT_RESOURCES() { return 23; }
    public static int NVML_ERROR_FREQ_NOT_SUPPORTED() { return 24; }
    public static int NVML_ERROR_ARGUMENT_VERSION_MISMATCH() { return 25; }
    public static int NVML_ERROR_DEPRECATED() { return 26; }
    public static int NVML_ERROR_NOT_READY() { return 27; }
    public static int NVML_ERROR_GPU_NOT_FOUND() { return 28; }
    public static int NVML_ERROR_INVALID_STATE() { return 29; }
    public static int NVML_ERROR_RESET_TYPE_NOT_SUPPORTED() { return 30; }
    public static int NVML_ERROR_UNKNOWN() { return 999; }

    // enum nvmlGpuTopologyLevel_t
    public static int NVML_TOPOLOGY_INTERNAL() { return 0; }
    public static int NVML_TOPOLOGY_SINGLE() { return 10; }
    public static int NVML_TOPOLOGY_MULTIPLE() { return 20; }
    public static int NVML_TOPOLOGY_HOSTBRIDGE() { return 30; }
    public static int NVML_TOPOLOGY_NODE() { return 40; }
    public static int NVML_TOPOLOGY_SYSTEM() { return 50; }

    // enum nvmlEnableState_t
    public static int NVML_FEATURE_DISABLED() { return 0; }
    public static int NVML_FEATURE_ENABLED() { return 1; }

    // enum nvmlIntNvLinkDeviceType_t
    public static int NVML_NVLINK_DEVICE_TYPE_GPU() { return 0x00; }
    public static int NVML_NVLINK_DEVICE_TYPE_IBMNPU() { return 0x01; }
    public static int NVML_NVLINK_DEVICE_TYPE_SWITCH() { return 0x02; }
    public static int NVML_NVLINK_DEVICE_TYPE_UNKNOWN() { return 0xFF; }

    // macros
    public static int NVML_DEVICE_PCI_BUS_ID_BUFFER_SIZE() { return 32; }
    public static int NVML_DEVICE_PCI_BUS_ID_BUFFER_V2_SIZE() { return 16; }
    public static int NVML_DEVICE_UUID_V2_BUFFER_SIZE() { return 96; }
    public static int NVML_DEVICE_NAME_V2_BUFFER_SIZE() { return 96; }
    public static int NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE() { return 80; }
    public static int NVML_NVLINK_MAX_LINKS() { return 18; }
    public static int nvmlMemory_v2() { return 0x02000028; }
    public static long nvmlEventTypeSingleBitEccError() { return 0x0000000000000001L; }
    public static long nvmlEventTypeDoubleBitEccError() { return 0x0000000000000002L; }
    public static long nvmlEventTypeXidCriticalError() { return 0x0000000000000008L; }

    private final NativeLibrary library;
    private final NativeLibrary.Symbol nvmlInit_v2$symbol;
    private final NativeLibrary.Symbol nvmlShutdown$symbol;
    private final NativeLibrary.Symbol nvmlErrorString$symbol;
    private final NativeLibrary.Symbol nvmlSystemGetDriverVersion$symbol;
    private final NativeLibrary.Symbol nvmlSystemGetCudaDriverVersion$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetCount_v2$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetHandleByIndex_v2$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetIndex$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetUUID$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetName$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetMemoryInfo$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetMemoryInfo_v2$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetPciInfo_v3$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetMinorNumber$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetNumaNodeId$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetCudaComputeCapability$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetUtilizationRates$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetTopologyCommonAncestor$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetNvLinkState$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetNvLinkRemotePciInfo_v2$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetNvLinkRemoteDeviceType$symbol;
    private final NativeLibrary.Symbol nvmlEventSetCreate$symbol;
    private final NativeLibrary.Symbol nvmlDeviceGetSupportedEventTypes$symbol;
    private final NativeLibrary.Symbol nvmlDeviceRegisterEvents$symbol;
    private final NativeLibrary.Symbol nvmlEventSetWait_v2$symbol;
    private final NativeLibrary.Symbol nvmlEventSetFree$symbol;

    public nvml_h(NativeLibrary library) {
        this.library = library;
        this.nvmlInit_v2$symbol = library.symbol("nvmlInit_v2");
        this.nvmlShutdown$symbol = library.symbol("nvmlShutdown");
        this.nvmlErrorString$symbol = library.symbol("nvmlErrorString");
        this.nvmlSystemGetDriverVersion$symbol = library.symbol("nvmlSystemGetDriverVersion");
        this.nvmlSystemGetCudaDriverVersion$symbol = library.symbol("nvmlSystemGetCudaDriverVersion");
        this.nvmlDeviceGetCount_v2$symbol = library.symbol("nvmlDeviceGetCount_v2");
        this.nvmlDeviceGetHandleByIndex_v2$symbol = library.symbol("nvmlDeviceGetHandleByIndex_v2");
        this.nvmlDeviceGetIndex$symbol = library.symbol("nvmlDeviceGetIndex");
        this.nvmlDeviceGetUUID$symbol = library.symbol("nvmlDeviceGetUUID");
        this.nvmlDeviceGetName$symbol = library.symbol("nvmlDeviceGetName");
        this.nvmlDeviceGetMemoryInfo$symbol = library.symbol("nvmlDeviceGetMemoryInfo");
        this.nvmlDeviceGetMemoryInfo_v2$symbol = library.symbol("nvmlDeviceGetMemoryInfo_v2");
        this.nvmlDeviceGetPciInfo_v3$symbol = library.symbol("nvmlDeviceGetPciInfo_v3");
        this.nvmlDeviceGetMinorNumber$symbol = library.symbol("nvmlDeviceGetMinorNumber");
        this.nvmlDeviceGetNumaNodeId$symbol = library.symbol("nvmlDeviceGetNumaNodeId");
        this.nvmlDeviceGetCudaComputeCapability$symbol = library.symbol("nvmlDeviceGetCudaComputeCapability");
        this.nvmlDeviceGetUtilizationRates$symbol = library.symbol("nvmlDeviceGetUtilizationRates");
        this.nvmlDeviceGetTopologyCommonAncestor$symbol = library.symbol("nvmlDeviceGetTopologyCommonAncestor");
        this.nvmlDeviceGetNvLinkState$symbol = library.symbol("nvmlDeviceGetNvLinkState");
        this.nvmlDeviceGetNvLinkRemotePciInfo_v2$symbol = library.symbol("nvmlDeviceGetNvLinkRemotePciInfo_v2");
        this.nvmlDeviceGetNvLinkRemoteDeviceType$symbol = library.symbol("nvmlDeviceGetNvLinkRemoteDeviceType");
        this.nvmlEventSetCreate$symbol = library.symbol("nvmlEventSetCreate");
        this.nvmlDeviceGetSupportedEventTypes$symbol = library.symbol("nvmlDeviceGetSupportedEventTypes");
        this.nvmlDeviceRegisterEvents$symbol = library.symbol("nvmlDeviceRegisterEvents");
        this.nvmlEventSetWait_v2$symbol = library.symbol("nvmlEventSetWait_v2");
        this.nvmlEventSetFree$symbol = library.symbol("nvmlEventSetFree");
    }

    public NativeLibrary library() {
        return library;
    }

    private static final class nvmlInit_v2 {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlInit_v2$descriptor() {
        return nvmlInit_v2.DESC;
    }

    public MemorySegment nvmlInit_v2$address() {
        return nvmlInit_v2$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlInit_v2(void)
     * }
     */
    public int nvmlInit_v2() {
        try {
            return (int) nvmlInit_v2.HANDLE.invokeExact(nvmlInit_v2$address());
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlShutdown {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlShutdown$descriptor() {
        return nvmlShutdown.DESC;
    }

    public MemorySegment nvmlShutdown$address() {
        return nvmlShutdown$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlShutdown(void)
     * }
     */
    public int nvmlShutdown() {
        try {
            return (int) nvmlShutdown.HANDLE.invokeExact(nvmlShutdown$address());
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlErrorString {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlErrorString$descriptor() {
        return nvmlErrorString.DESC;
    }

    public MemorySegment nvmlErrorString$address() {
        return nvmlErrorString$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * const char *nvmlErrorString(nvmlReturn_t result)
     * }
     */
    public MemorySegment nvmlErrorString(int result) {
        try {
            return (MemorySegment) nvmlErrorString.HANDLE.invokeExact(nvmlErrorString$address(), result);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlSystemGetDriverVersion {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlSystemGetDriverVersion$descriptor() {
        return nvmlSystemGetDriverVersion.DESC;
    }

    public MemorySegment nvmlSystemGetDriverVersion$address() {
        return nvmlSystemGetDriverVersion$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlSystemGetDriverVersion(char *version, unsigned int length)
     * }
     */
    public int nvmlSystemGetDriverVersion(MemorySegment version, int length) {
        try {
            return (int) nvmlSystemGetDriverVersion.HANDLE.invokeExact(nvmlSystemGetDriverVersion$address(), version, length);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlSystemGetCudaDriverVersion {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlSystemGetCudaDriverVersion$descriptor() {
        return nvmlSystemGetCudaDriverVersion.DESC;
    }

    public MemorySegment nvmlSystemGetCudaDriverVersion$address() {
        return nvmlSystemGetCudaDriverVersion$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlSystemGetCudaDriverVersion(int *cudaDriverVersion)
     * }
     */
    public int nvmlSystemGetCudaDriverVersion(MemorySegment cudaDriverVersion) {
        try {
            return (int) nvmlSystemGetCudaDriverVersion.HANDLE.invokeExact(nvmlSystemGetCudaDriverVersion$address(), cudaDriverVersion);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetCount_v2 {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetCount_v2$descriptor() {
        return nvmlDeviceGetCount_v2.DESC;
    }

    public MemorySegment nvmlDeviceGetCount_v2$address() {
        return nvmlDeviceGetCount_v2$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *deviceCount)
     * }
     */
    public int nvmlDeviceGetCount_v2(MemorySegment deviceCount) {
        try {
            return (int) nvmlDeviceGetCount_v2.HANDLE.invokeExact(nvmlDeviceGetCount_v2$address(), deviceCount);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetHandleByIndex_v2 {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetHandleByIndex_v2$descriptor() {
        return nvmlDeviceGetHandleByIndex_v2.DESC;
    }

    public MemorySegment nvmlDeviceGetHandleByIndex_v2$address() {
        return nvmlDeviceGetHandleByIndex_v2$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t *device)
     * }
     */
    public int nvmlDeviceGetHandleByIndex_v2(int index, MemorySegment device) {
        try {
            return (int) nvmlDeviceGetHandleByIndex_v2.HANDLE.invokeExact(nvmlDeviceGetHandleByIndex_v2$address(), index, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetIndex {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetIndex$descriptor() {
        return nvmlDeviceGetIndex.DESC;
    }

    public MemorySegment nvmlDeviceGetIndex$address() {
        return nvmlDeviceGetIndex$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int *index)
     * }
     */
    public int nvmlDeviceGetIndex(MemorySegment device, MemorySegment index) {
        try {
            return (int) nvmlDeviceGetIndex.HANDLE.invokeExact(nvmlDeviceGetIndex$address(), device, index);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetUUID {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetUUID$descriptor() {
        return nvmlDeviceGetUUID.DESC;
    }

    public MemorySegment nvmlDeviceGetUUID$address() {
        return nvmlDeviceGetUUID$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t device, char *uuid, unsigned int length)
     * }
     */
    public int nvmlDeviceGetUUID(MemorySegment device, MemorySegment uuid, int length) {
        try {
            return (int) nvmlDeviceGetUUID.HANDLE.invokeExact(nvmlDeviceGetUUID$address(), device, uuid, length);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetName {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetName$descriptor() {
        return nvmlDeviceGetName.DESC;
    }

    public MemorySegment nvmlDeviceGetName$address() {
        return nvmlDeviceGetName$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t device, char *name, unsigned int length)
     * }
     */
    public int nvmlDeviceGetName(MemorySegment device, MemorySegment name, int length) {
        try {
            return (int) nvmlDeviceGetName.HANDLE.invokeExact(nvmlDeviceGetName$address(), device, name, length);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetMemoryInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetMemoryInfo$descriptor() {
        return nvmlDeviceGetMemoryInfo.DESC;
    }

    public MemorySegment nvmlDeviceGetMemoryInfo$address() {
        return nvmlDeviceGetMemoryInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t *memory)
     * }
     */
    public int nvmlDeviceGetMemoryInfo(MemorySegment device, MemorySegment memory) {
        try {
            return (int) nvmlDeviceGetMemoryInfo.HANDLE.invokeExact(nvmlDeviceGetMemoryInfo$address(), device, memory);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetMemoryInfo_v2 {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetMemoryInfo_v2$descriptor() {
        return nvmlDeviceGetMemoryInfo_v2.DESC;
    }

    public MemorySegment nvmlDeviceGetMemoryInfo_v2$address() {
        return nvmlDeviceGetMemoryInfo_v2$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t *memory)
     * }
     */
    public int nvmlDeviceGetMemoryInfo_v2(MemorySegment device, MemorySegment memory) {
        try {
            return (int) nvmlDeviceGetMemoryInfo_v2.HANDLE.invokeExact(nvmlDeviceGetMemoryInfo_v2$address(), device, memory);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetPciInfo_v3 {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetPciInfo_v3$descriptor() {
        return nvmlDeviceGetPciInfo_v3.DESC;
    }

    public MemorySegment nvmlDeviceGetPciInfo_v3$address() {
        return nvmlDeviceGetPciInfo_v3$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t *pci)
     * }
     */
    public int nvmlDeviceGetPciInfo_v3(MemorySegment device, MemorySegment pci) {
        try {
            return (int) nvmlDeviceGetPciInfo_v3.HANDLE.invokeExact(nvmlDeviceGetPciInfo_v3$address(), device, pci);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetMinorNumber {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetMinorNumber$descriptor() {
        return nvmlDeviceGetMinorNumber.DESC;
    }

    public MemorySegment nvmlDeviceGetMinorNumber$address() {
        return nvmlDeviceGetMinorNumber$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetMinorNumber(nvmlDevice_t device, unsigned int *minorNumber)
     * }
     */
    public int nvmlDeviceGetMinorNumber(MemorySegment device, MemorySegment minorNumber) {
        try {
            return (int) nvmlDeviceGetMinorNumber.HANDLE.invokeExact(nvmlDeviceGetMinorNumber$address(), device, minorNumber);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetNumaNodeId {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetNumaNodeId$descriptor() {
        return nvmlDeviceGetNumaNodeId.DESC;
    }

    public MemorySegment nvmlDeviceGetNumaNodeId$address() {
        return nvmlDeviceGetNumaNodeId$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetNumaNodeId(nvmlDevice_t device, unsigned int *node)
     * }
     */
    public int nvmlDeviceGetNumaNodeId(MemorySegment device, MemorySegment node) {
        try {
            return (int) nvmlDeviceGetNumaNodeId.HANDLE.invokeExact(nvmlDeviceGetNumaNodeId$address(), device, node);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetCudaComputeCapability {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetCudaComputeCapability$descriptor() {
        return nvmlDeviceGetCudaComputeCapability.DESC;
    }

    public MemorySegment nvmlDeviceGetCudaComputeCapability$address() {
        return nvmlDeviceGetCudaComputeCapability$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int *major, int *minor)
     * }
     */
    public int nvmlDeviceGetCudaComputeCapability(MemorySegment device, MemorySegment major, MemorySegment minor) {
        try {
            return (int) nvmlDeviceGetCudaComputeCapability.HANDLE.invokeExact(nvmlDeviceGetCudaComputeCapability$address(), device, major, minor);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetUtilizationRates {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetUtilizationRates$descriptor() {
        return nvmlDeviceGetUtilizationRates.DESC;
    }

    public MemorySegment nvmlDeviceGetUtilizationRates$address() {
        return nvmlDeviceGetUtilizationRates$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t *utilization)
     * }
     */
    public int nvmlDeviceGetUtilizationRates(MemorySegment device, MemorySegment utilization) {
        try {
            return (int) nvmlDeviceGetUtilizationRates.HANDLE.invokeExact(nvmlDeviceGetUtilizationRates$address(), device, utilization);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetTopologyCommonAncestor {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetTopologyCommonAncestor$descriptor() {
        return nvmlDeviceGetTopologyCommonAncestor.DESC;
    }

    public MemorySegment nvmlDeviceGetTopologyCommonAncestor$address() {
        return nvmlDeviceGetTopologyCommonAncestor$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetTopologyCommonAncestor(nvmlDevice_t device1, nvmlDevice_t device2, nvmlGpuTopologyLevel_t *pathInfo)
     * }
     */
    public int nvmlDeviceGetTopologyCommonAncestor(MemorySegment device1, MemorySegment device2, MemorySegment pathInfo) {
        try {
            return (int) nvmlDeviceGetTopologyCommonAncestor.HANDLE.invokeExact(nvmlDeviceGetTopologyCommonAncestor$address(), device1, device2, pathInfo);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetNvLinkState {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetNvLinkState$descriptor() {
        return nvmlDeviceGetNvLinkState.DESC;
    }

    public MemorySegment nvmlDeviceGetNvLinkState$address() {
        return nvmlDeviceGetNvLinkState$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, nvmlEnableState_t *isActive)
     * }
     */
    public int nvmlDeviceGetNvLinkState(MemorySegment device, int link, MemorySegment isActive) {
        try {
            return (int) nvmlDeviceGetNvLinkState.HANDLE.invokeExact(nvmlDeviceGetNvLinkState$address(), device, link, isActive);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetNvLinkRemotePciInfo_v2 {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetNvLinkRemotePciInfo_v2$descriptor() {
        return nvmlDeviceGetNvLinkRemotePciInfo_v2.DESC;
    }

    public MemorySegment nvmlDeviceGetNvLinkRemotePciInfo_v2$address() {
        return nvmlDeviceGetNvLinkRemotePciInfo_v2$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device, unsigned int link, nvmlPciInfo_t *pci)
     * }
     */
    public int nvmlDeviceGetNvLinkRemotePciInfo_v2(MemorySegment device, int link, MemorySegment pci) {
        try {
            return (int) nvmlDeviceGetNvLinkRemotePciInfo_v2.HANDLE.invokeExact(nvmlDeviceGetNvLinkRemotePciInfo_v2$address(), device, link, pci);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetNvLinkRemoteDeviceType {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetNvLinkRemoteDeviceType$descriptor() {
        return nvmlDeviceGetNvLinkRemoteDeviceType.DESC;
    }

    public MemorySegment nvmlDeviceGetNvLinkRemoteDeviceType$address() {
        return nvmlDeviceGetNvLinkRemoteDeviceType$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t device, unsigned int link, nvmlIntNvLinkDeviceType_t *pNvLinkDeviceType)
     * }
     */
    public int nvmlDeviceGetNvLinkRemoteDeviceType(MemorySegment device, int link, MemorySegment pNvLinkDeviceType) {
        try {
            return (int) nvmlDeviceGetNvLinkRemoteDeviceType.HANDLE.invokeExact(nvmlDeviceGetNvLinkRemoteDeviceType$address(), device, link, pNvLinkDeviceType);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlEventSetCreate {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlEventSetCreate$descriptor() {
        return nvmlEventSetCreate.DESC;
    }

    public MemorySegment nvmlEventSetCreate$address() {
        return nvmlEventSetCreate$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlEventSetCreate(nvmlEventSet_t *set)
     * }
     */
    public int nvmlEventSetCreate(MemorySegment set) {
        try {
            return (int) nvmlEventSetCreate.HANDLE.invokeExact(nvmlEventSetCreate$address(), set);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceGetSupportedEventTypes {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceGetSupportedEventTypes$descriptor() {
        return nvmlDeviceGetSupportedEventTypes.DESC;
    }

    public MemorySegment nvmlDeviceGetSupportedEventTypes$address() {
        return nvmlDeviceGetSupportedEventTypes$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceGetSupportedEventTypes(nvmlDevice_t device, unsigned long long *eventTypes)
     * }
     */
    public int nvmlDeviceGetSupportedEventTypes(MemorySegment device, MemorySegment eventTypes) {
        try {
            return (int) nvmlDeviceGetSupportedEventTypes.HANDLE.invokeExact(nvmlDeviceGetSupportedEventTypes$address(), device, eventTypes);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlDeviceRegisterEvents {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_LONG_LONG, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlDeviceRegisterEvents$descriptor() {
        return nvmlDeviceRegisterEvents.DESC;
    }

    public MemorySegment nvmlDeviceRegisterEvents$address() {
        return nvmlDeviceRegisterEvents$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlDeviceRegisterEvents(nvmlDevice_t device, unsigned long long eventTypes, nvmlEventSet_t set)
     * }
     */
    public int nvmlDeviceRegisterEvents(MemorySegment device, long eventTypes, MemorySegment set) {
        try {
            return (int) nvmlDeviceRegisterEvents.HANDLE.invokeExact(nvmlDeviceRegisterEvents$address(), device, eventTypes, set);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlEventSetWait_v2 {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlEventSetWait_v2$descriptor() {
        return nvmlEventSetWait_v2.DESC;
    }

    public MemorySegment nvmlEventSetWait_v2$address() {
        return nvmlEventSetWait_v2$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlEventSetWait_v2(nvmlEventSet_t set, nvmlEventData_t *data, unsigned int timeoutms)
     * }
     */
    public int nvmlEventSetWait_v2(MemorySegment set, MemorySegment data, int timeoutms) {
        try {
            return (int) nvmlEventSetWait_v2.HANDLE.invokeExact(nvmlEventSetWait_v2$address(), set, data, timeoutms);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class nvmlEventSetFree {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor nvmlEventSetFree$descriptor() {
        return nvmlEventSetFree.DESC;
    }

    public MemorySegment nvmlEventSetFree$address() {
        return nvmlEventSetFree$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * nvmlReturn_t nvmlEventSetFree(nvmlEventSet_t set)
     * }
     */
    public int nvmlEventSetFree(MemorySegment set) {
        try {
            return (int) nvmlEventSetFree.HANDLE.invokeExact(nvmlEventSetFree$address(), set);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }
}
