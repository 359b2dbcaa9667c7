package io.hami.nativebind.cndev.raw;

import io.hami.nativebind.NativeLibrary;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * FFM binding of {@code hami_cndev.h} in the shape jextract generates (Cambricon CNDev, libcndev.so).
 * Unlike jextract output it is bound to one loaded library instance instead of a static lookup, so that
 * several copies of a library (the lab's mock nodes) can live in one process. Each function's address is
 * looked up on its first call: a symbol missing from an older driver fails only when that function is used.
 * Keep logic out of this class; it mirrors the header.
 */
public final class cndev_h {

    public static final ValueLayout.OfByte C_CHAR = (ValueLayout.OfByte) Linker.nativeLinker().canonicalLayouts().get("char");
    public static final ValueLayout.OfShort C_SHORT = (ValueLayout.OfShort) Linker.nativeLinker().canonicalLayouts().get("short");
    public static final ValueLayout.OfInt C_INT = (ValueLayout.OfInt) Linker.nativeLinker().canonicalLayouts().get("int");
    public static final ValueLayout.OfLong C_LONG = (ValueLayout.OfLong) Linker.nativeLinker().canonicalLayouts().get("long");
    /** Plain {@code void*}: no unbounded target layout, so wrappers must reinterpret returned strings with a bound. */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS;

    // enum cndevRet_t
    public static int CNDEV_SUCCESS() { return 0; }
    public static int CNDEV_ERROR_NO_DRIVER() { return 1; }
    public static int CNDEV_ERROR_LOW_DRIVER_VERSION() { return 2; }
    public static int CNDEV_ERROR_UNSUPPORTED_API_VERSION() { return 3; }
    public static int CNDEV_ERROR_UNINITIALIZED() { return 4; }
    public static int CNDEV_ERROR_INVALID_ARGUMENT() { return 5; }
    public static int CNDEV_ERROR_INVALID_DEVICE_ID() { return 6; }
    public static int CNDEV_ERROR_UNKNOWN() { return 7; }
    public static int CNDEV_ERROR_MALLOC() { return 8; }
    public static int CNDEV_ERROR_INSUFFICIENT_SPACE() { return 9; }
    public static int CNDEV_ERROR_NOT_SUPPORTED() { return 10; }
    public static int CNDEV_ERROR_INVALID_LINK() { return 11; }
    public static int CNDEV_ERROR_NO_DEVICES() { return 12; }
    public static int CNDEV_ERROR_NO_PERMISSION() { return 13; }
    public static int CNDEV_ERROR_NOT_FOUND() { return 14; }
    public static int CNDEV_ERROR_IN_USE() { return 15; }
    public static int CNDEV_ERROR_DUPLICATE() { return 16; }
    public static int CNDEV_ERROR_TIMEOUT() { return 17; }
    public static int CNDEV_ERROR_IN_PROBLEM() { return 18; }

    // enum cndevHealthStateEnum_t
    public static int CNDEV_HEALTH_STATE_DEVICE_IN_PROBLEM() { return 0; }
    public static int CNDEV_HEALTH_STATE_DEVICE_GOOD() { return 1; }

    // enum cndevDriverHealthStateEnum_t
    public static int CNDEV_HEALTH_STATE_DRIVER_EARLY_INITED() { return 0; }
    public static int CNDEV_HEALTH_STATE_DRIVER_BRING_UP() { return 1; }
    public static int CNDEV_HEALTH_STATE_DRIVER_BOOTING() { return 2; }
    public static int CNDEV_HEALTH_STATE_DRIVER_LATEINIT() { return 3; }
    public static int CNDEV_HEALTH_STATE_DRIVER_RUNNING() { return 4; }
    public static int CNDEV_HEALTH_STATE_DRIVER_BOOT_ERROR() { return 5; }
    public static int CNDEV_HEALTH_STATE_DRIVER_RESET() { return 6; }
    public static int CNDEV_HEALTH_STATE_DRIVER_RESET_ERROR() { return 7; }
    public static int CNDEV_HEALTH_STATE_DRIVER_UNKNOWN() { return 8; }

    // enum cndevSMluItemEnum_t
    public static int CNDEV_SMLU_MAX() { return 0; }
    public static int CNDEV_SMLU_USAGE() { return 1; }
    public static int CNDEV_SMLU_ITEM_COUNT() { return 2; }

    // macros
    public static int CNDEV_VERSION_6() { return 6; }
    public static int CNDEV_UUID_SIZE() { return 37; }

    private final NativeLibrary library;
    private final NativeLibrary.Symbol cndevInit$symbol;
    private final NativeLibrary.Symbol cndevRelease$symbol;
    private final NativeLibrary.Symbol cndevGetErrorString$symbol;
    private final NativeLibrary.Symbol cndevGetDriverVersion$symbol;
    private final NativeLibrary.Symbol cndevGetDeviceCount$symbol;
    private final NativeLibrary.Symbol cndevGetDeviceHandleByIndex$symbol;
    private final NativeLibrary.Symbol cndevDeviceGetMinorNumber$symbol;
    private final NativeLibrary.Symbol cndevGetUUID$symbol;
    private final NativeLibrary.Symbol cndevGetCardNameStringByDevId$symbol;
    private final NativeLibrary.Symbol cndevGetMemoryUsageV2$symbol;
    private final NativeLibrary.Symbol cndevGetPCIeInfoV2$symbol;
    private final NativeLibrary.Symbol cndevGetNUMANodeIdByDevId$symbol;
    private final NativeLibrary.Symbol cndevGetCardHealthState$symbol;
    private final NativeLibrary.Symbol cndevCreateSMluProfileInfo$symbol;
    private final NativeLibrary.Symbol cndevDestroySMluProfileInfo$symbol;
    private final NativeLibrary.Symbol cndevGetSMluProfileIdInfo$symbol;
    private final NativeLibrary.Symbol cndevGetSMluProfileInfo$symbol;
    private final NativeLibrary.Symbol cndevCreateSMluInstanceByProfileId$symbol;
    private final NativeLibrary.Symbol cndevDestroySMluInstanceByHandle$symbol;
    private final NativeLibrary.Symbol cndevGetSMluInstanceInfo$symbol;
    private final NativeLibrary.Symbol cndevGetAllSMluInstanceInfo$symbol;

    public cndev_h(NativeLibrary library) {
        this.library = library;
        this.cndevInit$symbol = library.symbol("cndevInit");
        this.cndevRelease$symbol = library.symbol("cndevRelease");
        this.cndevGetErrorString$symbol = library.symbol("cndevGetErrorString");
        this.cndevGetDriverVersion$symbol = library.symbol("cndevGetDriverVersion");
        this.cndevGetDeviceCount$symbol = library.symbol("cndevGetDeviceCount");
        this.cndevGetDeviceHandleByIndex$symbol = library.symbol("cndevGetDeviceHandleByIndex");
        this.cndevDeviceGetMinorNumber$symbol = library.symbol("cndevDeviceGetMinorNumber");
        this.cndevGetUUID$symbol = library.symbol("cndevGetUUID");
        this.cndevGetCardNameStringByDevId$symbol = library.symbol("cndevGetCardNameStringByDevId");
        this.cndevGetMemoryUsageV2$symbol = library.symbol("cndevGetMemoryUsageV2");
        this.cndevGetPCIeInfoV2$symbol = library.symbol("cndevGetPCIeInfoV2");
        this.cndevGetNUMANodeIdByDevId$symbol = library.symbol("cndevGetNUMANodeIdByDevId");
        this.cndevGetCardHealthState$symbol = library.symbol("cndevGetCardHealthState");
        this.cndevCreateSMluProfileInfo$symbol = library.symbol("cndevCreateSMluProfileInfo");
        this.cndevDestroySMluProfileInfo$symbol = library.symbol("cndevDestroySMluProfileInfo");
        this.cndevGetSMluProfileIdInfo$symbol = library.symbol("cndevGetSMluProfileIdInfo");
        this.cndevGetSMluProfileInfo$symbol = library.symbol("cndevGetSMluProfileInfo");
        this.cndevCreateSMluInstanceByProfileId$symbol = library.symbol("cndevCreateSMluInstanceByProfileId");
        this.cndevDestroySMluInstanceByHandle$symbol = library.symbol("cndevDestroySMluInstanceByHandle");
        this.cndevGetSMluInstanceInfo$symbol = library.symbol("cndevGetSMluInstanceInfo");
        this.cndevGetAllSMluInstanceInfo$symbol = library.symbol("cndevGetAllSMluInstanceInfo");
    }

    public NativeLibrary library() {
        return library;
    }

    private static final class cndevInit {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevInit$descriptor() {
        return cndevInit.DESC;
    }

    public MemorySegment cndevInit$address() {
        return cndevInit$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevInit(int32_t reserved)
     * }
     */
    public int cndevInit(int reserved) {
        try {
            return (int) cndevInit.HANDLE.invokeExact(cndevInit$address(), reserved);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevRelease {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevRelease$descriptor() {
        return cndevRelease.DESC;
    }

    public MemorySegment cndevRelease$address() {
        return cndevRelease$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevRelease(void)
     * }
     */
    public int cndevRelease() {
        try {
            return (int) cndevRelease.HANDLE.invokeExact(cndevRelease$address());
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetErrorString {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetErrorString$descriptor() {
        return cndevGetErrorString.DESC;
    }

    public MemorySegment cndevGetErrorString$address() {
        return cndevGetErrorString$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * const char *cndevGetErrorString(cndevRet_t errorId)
     * }
     */
    public MemorySegment cndevGetErrorString(int errorId) {
        try {
            return (MemorySegment) cndevGetErrorString.HANDLE.invokeExact(cndevGetErrorString$address(), errorId);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetDriverVersion {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetDriverVersion$descriptor() {
        return cndevGetDriverVersion.DESC;
    }

    public MemorySegment cndevGetDriverVersion$address() {
        return cndevGetDriverVersion$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetDriverVersion(uint32_t *majorVersion, uint32_t *minorVersion, uint32_t *buildVersion)
     * }
     */
    public int cndevGetDriverVersion(MemorySegment majorVersion, MemorySegment minorVersion, MemorySegment buildVersion) {
        try {
            return (int) cndevGetDriverVersion.HANDLE.invokeExact(cndevGetDriverVersion$address(), majorVersion, minorVersion, buildVersion);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetDeviceCount {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetDeviceCount$descriptor() {
        return cndevGetDeviceCount.DESC;
    }

    public MemorySegment cndevGetDeviceCount$address() {
        return cndevGetDeviceCount$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetDeviceCount(cndevCardInfo_t *cardNum)
     * }
     */
    public int cndevGetDeviceCount(MemorySegment cardNum) {
        try {
            return (int) cndevGetDeviceCount.HANDLE.invokeExact(cndevGetDeviceCount$address(), cardNum);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetDeviceHandleByIndex {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetDeviceHandleByIndex$descriptor() {
        return cndevGetDeviceHandleByIndex.DESC;
    }

    public MemorySegment cndevGetDeviceHandleByIndex$address() {
        return cndevGetDeviceHandleByIndex$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetDeviceHandleByIndex(int32_t index, cndevDevice_t *handle)
     * }
     */
    public int cndevGetDeviceHandleByIndex(int index, MemorySegment handle) {
        try {
            return (int) cndevGetDeviceHandleByIndex.HANDLE.invokeExact(cndevGetDeviceHandleByIndex$address(), index, handle);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevDeviceGetMinorNumber {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevDeviceGetMinorNumber$descriptor() {
        return cndevDeviceGetMinorNumber.DESC;
    }

    public MemorySegment cndevDeviceGetMinorNumber$address() {
        return cndevDeviceGetMinorNumber$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevDeviceGetMinorNumber(uint32_t *minor, cndevDevice_t device)
     * }
     */
    public int cndevDeviceGetMinorNumber(MemorySegment minor, int device) {
        try {
            return (int) cndevDeviceGetMinorNumber.HANDLE.invokeExact(cndevDeviceGetMinorNumber$address(), minor, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetUUID {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetUUID$descriptor() {
        return cndevGetUUID.DESC;
    }

    public MemorySegment cndevGetUUID$address() {
        return cndevGetUUID$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetUUID(cndevUUID_t *uuidInfo, cndevDevice_t device)
     * }
     */
    public int cndevGetUUID(MemorySegment uuidInfo, int device) {
        try {
            return (int) cndevGetUUID.HANDLE.invokeExact(cndevGetUUID$address(), uuidInfo, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetCardNameStringByDevId {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetCardNameStringByDevId$descriptor() {
        return cndevGetCardNameStringByDevId.DESC;
    }

    public MemorySegment cndevGetCardNameStringByDevId$address() {
        return cndevGetCardNameStringByDevId$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * const char *cndevGetCardNameStringByDevId(cndevDevice_t device)
     * }
     */
    public MemorySegment cndevGetCardNameStringByDevId(int device) {
        try {
            return (MemorySegment) cndevGetCardNameStringByDevId.HANDLE.invokeExact(cndevGetCardNameStringByDevId$address(), device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetMemoryUsageV2 {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetMemoryUsageV2$descriptor() {
        return cndevGetMemoryUsageV2.DESC;
    }

    public MemorySegment cndevGetMemoryUsageV2$address() {
        return cndevGetMemoryUsageV2$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetMemoryUsageV2(cndevMemoryInfoV2_t *memInfo, cndevDevice_t device)
     * }
     */
    public int cndevGetMemoryUsageV2(MemorySegment memInfo, int device) {
        try {
            return (int) cndevGetMemoryUsageV2.HANDLE.invokeExact(cndevGetMemoryUsageV2$address(), memInfo, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetPCIeInfoV2 {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetPCIeInfoV2$descriptor() {
        return cndevGetPCIeInfoV2.DESC;
    }

    public MemorySegment cndevGetPCIeInfoV2$address() {
        return cndevGetPCIeInfoV2$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetPCIeInfoV2(cndevPCIeInfoV2_t *deviceInfo, cndevDevice_t device)
     * }
     */
    public int cndevGetPCIeInfoV2(MemorySegment deviceInfo, int device) {
        try {
            return (int) cndevGetPCIeInfoV2.HANDLE.invokeExact(cndevGetPCIeInfoV2$address(), deviceInfo, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetNUMANodeIdByDevId {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetNUMANodeIdByDevId$descriptor() {
        return cndevGetNUMANodeIdByDevId.DESC;
    }

    public MemorySegment cndevGetNUMANodeIdByDevId$address() {
        return cndevGetNUMANodeIdByDevId$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetNUMANodeIdByDevId(cndevNUMANodeId_t *numaNodeId, cndevDevice_t device)
     * }
     */
    public int cndevGetNUMANodeIdByDevId(MemorySegment numaNodeId, int device) {
        try {
            return (int) cndevGetNUMANodeIdByDevId.HANDLE.invokeExact(cndevGetNUMANodeIdByDevId$address(), numaNodeId, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetCardHealthState {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetCardHealthState$descriptor() {
        return cndevGetCardHealthState.DESC;
    }

    public MemorySegment cndevGetCardHealthState$address() {
        return cndevGetCardHealthState$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetCardHealthState(cndevCardHealthState_t *cardHealthState, cndevDevice_t device)
     * }
     */
    public int cndevGetCardHealthState(MemorySegment cardHealthState, int device) {
        try {
            return (int) cndevGetCardHealthState.HANDLE.invokeExact(cndevGetCardHealthState$address(), cardHealthState, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevCreateSMluProfileInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevCreateSMluProfileInfo$descriptor() {
        return cndevCreateSMluProfileInfo.DESC;
    }

    public MemorySegment cndevCreateSMluProfileInfo$address() {
        return cndevCreateSMluProfileInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevCreateSMluProfileInfo(cndevSMluSet_t *profileInfo, int *profileId, cndevDevice_t device)
     * }
     */
    public int cndevCreateSMluProfileInfo(MemorySegment profileInfo, MemorySegment profileId, int device) {
        try {
            return (int) cndevCreateSMluProfileInfo.HANDLE.invokeExact(cndevCreateSMluProfileInfo$address(), profileInfo, profileId, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevDestroySMluProfileInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevDestroySMluProfileInfo$descriptor() {
        return cndevDestroySMluProfileInfo.DESC;
    }

    public MemorySegment cndevDestroySMluProfileInfo$address() {
        return cndevDestroySMluProfileInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevDestroySMluProfileInfo(int profileId, cndevDevice_t device)
     * }
     */
    public int cndevDestroySMluProfileInfo(int profileId, int device) {
        try {
            return (int) cndevDestroySMluProfileInfo.HANDLE.invokeExact(cndevDestroySMluProfileInfo$address(), profileId, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetSMluProfileIdInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetSMluProfileIdInfo$descriptor() {
        return cndevGetSMluProfileIdInfo.DESC;
    }

    public MemorySegment cndevGetSMluProfileIdInfo$address() {
        return cndevGetSMluProfileIdInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetSMluProfileIdInfo(cndevSMluProfileIdInfo_t *profileId, cndevDevice_t device)
     * }
     */
    public int cndevGetSMluProfileIdInfo(MemorySegment profileId, int device) {
        try {
            return (int) cndevGetSMluProfileIdInfo.HANDLE.invokeExact(cndevGetSMluProfileIdInfo$address(), profileId, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetSMluProfileInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetSMluProfileInfo$descriptor() {
        return cndevGetSMluProfileInfo.DESC;
    }

    public MemorySegment cndevGetSMluProfileInfo$address() {
        return cndevGetSMluProfileInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetSMluProfileInfo(cndevSMluProfileInfo_t *profileInfo, int profile, cndevDevice_t device)
     * }
     */
    public int cndevGetSMluProfileInfo(MemorySegment profileInfo, int profile, int device) {
        try {
            return (int) cndevGetSMluProfileInfo.HANDLE.invokeExact(cndevGetSMluProfileInfo$address(), profileInfo, profile, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevCreateSMluInstanceByProfileId {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevCreateSMluInstanceByProfileId$descriptor() {
        return cndevCreateSMluInstanceByProfileId.DESC;
    }

    public MemorySegment cndevCreateSMluInstanceByProfileId$address() {
        return cndevCreateSMluInstanceByProfileId$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevCreateSMluInstanceByProfileId(cndevMluInstance_t *miHandle, unsigned int profileId, cndevDevice_t device, char *name)
     * }
     */
    public int cndevCreateSMluInstanceByProfileId(MemorySegment miHandle, int profileId, int device, MemorySegment name) {
        try {
            return (int) cndevCreateSMluInstanceByProfileId.HANDLE.invokeExact(cndevCreateSMluInstanceByProfileId$address(), miHandle, profileId, device, name);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevDestroySMluInstanceByHandle {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevDestroySMluInstanceByHandle$descriptor() {
        return cndevDestroySMluInstanceByHandle.DESC;
    }

    public MemorySegment cndevDestroySMluInstanceByHandle$address() {
        return cndevDestroySMluInstanceByHandle$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevDestroySMluInstanceByHandle(cndevMluInstance_t miHandle)
     * }
     */
    public int cndevDestroySMluInstanceByHandle(int miHandle) {
        try {
            return (int) cndevDestroySMluInstanceByHandle.HANDLE.invokeExact(cndevDestroySMluInstanceByHandle$address(), miHandle);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetSMluInstanceInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetSMluInstanceInfo$descriptor() {
        return cndevGetSMluInstanceInfo.DESC;
    }

    public MemorySegment cndevGetSMluInstanceInfo$address() {
        return cndevGetSMluInstanceInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetSMluInstanceInfo(cndevSMluInfo_t *smluInfo, cndevMluInstance_t miHandle)
     * }
     */
    public int cndevGetSMluInstanceInfo(MemorySegment smluInfo, int miHandle) {
        try {
            return (int) cndevGetSMluInstanceInfo.HANDLE.invokeExact(cndevGetSMluInstanceInfo$address(), smluInfo, miHandle);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class cndevGetAllSMluInstanceInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor cndevGetAllSMluInstanceInfo$descriptor() {
        return cndevGetAllSMluInstanceInfo.DESC;
    }

    public MemorySegment cndevGetAllSMluInstanceInfo$address() {
        return cndevGetAllSMluInstanceInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * cndevRet_t cndevGetAllSMluInstanceInfo(int *count, cndevSMluInfo_t *smluInfo, cndevDevice_t device)
     * }
     */
    public int cndevGetAllSMluInstanceInfo(MemorySegment count, MemorySegment smluInfo, int device) {
        try {
            return (int) cndevGetAllSMluInstanceInfo.HANDLE.invokeExact(cndevGetAllSMluInstanceInfo$address(), count, smluInfo, device);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }
}
