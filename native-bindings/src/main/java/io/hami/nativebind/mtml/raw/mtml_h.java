package io.hami.nativebind.mtml.raw;

import io.hami.nativebind.NativeLibrary;
import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * FFM binding of {@code hami_mtml.h} in the shape jextract generates (Moore Threads MTML, libmtml.so.2).
 * Unlike jextract output it is bound to one loaded library instance instead of a static lookup, so that
 * several copies of a library (the lab's mock nodes) can live in one process. Each function's address is
 * looked up on its first call: a symbol missing from an older driver fails only when that function is used.
 * Keep logic out of this class; it mirrors the header.
 */
public final class mtml_h {

    public static final ValueLayout.OfByte C_CHAR = (ValueLayout.OfByte) Linker.nativeLinker().canonicalLayouts().get("char");
    public static final ValueLayout.OfInt C_INT = (ValueLayout.OfInt) Linker.nativeLinker().canonicalLayouts().get("int");
    public static final ValueLayout.OfFloat C_FLOAT = (ValueLayout.OfFloat) Linker.nativeLinker().canonicalLayouts().get("float");
    /** Plain {@code void*}: no unbounded target layout, so wrappers must reinterpret returned strings with a bound. */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS;

    // enum MtmlReturn
    public static int MTML_SUCCESS() { return 0; }
    public static int MTML_ERROR_DRIVER_NOT_LOADED() { return 1; }
    public static int MTML_ERROR_DRIVER_FAILURE() { return 2; }
    public static int MTML_ERROR_INVALID_ARGUMENT() { return 3; }
    public static int MTML_ERROR_NOT_SUPPORTED() { return 4; }
    public static int MTML_ERROR_NO_PERMISSION() { return 5; }
    public static int MTML_ERROR_INSUFFICIENT_SIZE() { return 6; }
    public static int MTML_ERROR_NOT_FOUND() { return 7; }
    public static int MTML_ERROR_INSUFFICIENT_MEMORY() { return 8; }
    public static int MTML_ERROR_DRIVER_TOO_OLD() { return 9; }
    public static int MTML_ERROR_DRIVER_TOO_NEW() { return 10; }
    public static int MTML_ERROR_TIMEOUT() { return 11; }
    public static int MTML_ERROR_RESOURCE_IS_BUSY() { return 12; }
    public static int MTML_ERROR_UNKNOWN() { return 999; }

    // enum MtmlRetiredPagesPendingState
    public static int MTML_RETIRED_PAGES_PENDING_STATE_FALSE() { return 0; }
    public static int MTML_RETIRED_PAGES_PENDING_STATE_TRUE() { return 1; }

    // macros
    public static int MTML_DRIVER_VERSION_BUFFER_SIZE() { return 80; }
    public static int MTML_DEVICE_NAME_BUFFER_SIZE() { return 32; }
    public static int MTML_DEVICE_UUID_BUFFER_SIZE() { return 48; }
    public static int MTML_DEVICE_PATH_BUFFER_SIZE() { return 64; }

    private final NativeLibrary library;
    private final NativeLibrary.Symbol mtmlLibraryInit$symbol;
    private final NativeLibrary.Symbol mtmlLibraryShutDown$symbol;
    private final NativeLibrary.Symbol mtmlLibraryInitSystem$symbol;
    private final NativeLibrary.Symbol mtmlSystemGetDriverVersion$symbol;
    private final NativeLibrary.Symbol mtmlLibraryCountDevice$symbol;
    private final NativeLibrary.Symbol mtmlLibraryInitDeviceByIndex$symbol;
    private final NativeLibrary.Symbol mtmlDeviceGetIndex$symbol;
    private final NativeLibrary.Symbol mtmlDeviceGetUUID$symbol;
    private final NativeLibrary.Symbol mtmlDeviceGetName$symbol;
    private final NativeLibrary.Symbol mtmlDeviceGetPciInfo$symbol;
    private final NativeLibrary.Symbol mtmlDeviceGetGpuPath$symbol;
    private final NativeLibrary.Symbol mtmlDeviceGetMemoryAffinityWithinNode$symbol;
    private final NativeLibrary.Symbol mtmlDeviceInitMemory$symbol;
    private final NativeLibrary.Symbol mtmlMemoryGetTotal$symbol;
    private final NativeLibrary.Symbol mtmlMemoryGetUsed$symbol;
    private final NativeLibrary.Symbol mtmlMemoryGetRetiredPagesPendingStatus$symbol;
    private final NativeLibrary.Symbol mtmlErrorString$symbol;

    public mtml_h(NativeLibrary library) {
        this.library = library;
        this.mtmlLibraryInit$symbol = library.symbol("mtmlLibraryInit");
        this.mtmlLibraryShutDown$symbol = library.symbol("mtmlLibraryShutDown");
        this.mtmlLibraryInitSystem$symbol = library.symbol("mtmlLibraryInitSystem");
        this.mtmlSystemGetDriverVersion$symbol = library.symbol("mtmlSystemGetDriverVersion");
        this.mtmlLibraryCountDevice$symbol = library.symbol("mtmlLibraryCountDevice");
        this.mtmlLibraryInitDeviceByIndex$symbol = library.symbol("mtmlLibraryInitDeviceByIndex");
        this.mtmlDeviceGetIndex$symbol = library.symbol("mtmlDeviceGetIndex");
        this.mtmlDeviceGetUUID$symbol = library.symbol("mtmlDeviceGetUUID");
        this.mtmlDeviceGetName$symbol = library.symbol("mtmlDeviceGetName");
        this.mtmlDeviceGetPciInfo$symbol = library.symbol("mtmlDeviceGetPciInfo");
        this.mtmlDeviceGetGpuPath$symbol = library.symbol("mtmlDeviceGetGpuPath");
        this.mtmlDeviceGetMemoryAffinityWithinNode$symbol = library.symbol("mtmlDeviceGetMemoryAffinityWithinNode");
        this.mtmlDeviceInitMemory$symbol = library.symbol("mtmlDeviceInitMemory");
        this.mtmlMemoryGetTotal$symbol = library.symbol("mtmlMemoryGetTotal");
        this.mtmlMemoryGetUsed$symbol = library.symbol("mtmlMemoryGetUsed");
        this.mtmlMemoryGetRetiredPagesPendingStatus$symbol = library.symbol("mtmlMemoryGetRetiredPagesPendingStatus");
        this.mtmlErrorString$symbol = library.symbol("mtmlErrorString");
    }

    public NativeLibrary library() {
        return library;
    }

    private static final class mtmlLibraryInit {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlLibraryInit$descriptor() {
        return mtmlLibraryInit.DESC;
    }

    public MemorySegment mtmlLibraryInit$address() {
        return mtmlLibraryInit$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlLibraryInit(MtmlLibrary **lib)
     * }
     */
    public int mtmlLibraryInit(MemorySegment lib) {
        try {
            return (int) mtmlLibraryInit.HANDLE.invokeExact(mtmlLibraryInit$address(), lib);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlLibraryShutDown {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlLibraryShutDown$descriptor() {
        return mtmlLibraryShutDown.DESC;
    }

    public MemorySegment mtmlLibraryShutDown$address() {
        return mtmlLibraryShutDown$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlLibraryShutDown(MtmlLibrary *lib)
     * }
     */
    public int mtmlLibraryShutDown(MemorySegment lib) {
        try {
            return (int) mtmlLibraryShutDown.HANDLE.invokeExact(mtmlLibraryShutDown$address(), lib);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlLibraryInitSystem {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlLibraryInitSystem$descriptor() {
        return mtmlLibraryInitSystem.DESC;
    }

    public MemorySegment mtmlLibraryInitSystem$address() {
        return mtmlLibraryInitSystem$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlLibraryInitSystem(const MtmlLibrary *lib, MtmlSystem **sys)
     * }
     */
    public int mtmlLibraryInitSystem(MemorySegment lib, MemorySegment sys) {
        try {
            return (int) mtmlLibraryInitSystem.HANDLE.invokeExact(mtmlLibraryInitSystem$address(), lib, sys);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlSystemGetDriverVersion {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlSystemGetDriverVersion$descriptor() {
        return mtmlSystemGetDriverVersion.DESC;
    }

    public MemorySegment mtmlSystemGetDriverVersion$address() {
        return mtmlSystemGetDriverVersion$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlSystemGetDriverVersion(const MtmlSystem *sys, char *version, unsigned int length)
     * }
     */
    public int mtmlSystemGetDriverVersion(MemorySegment sys, MemorySegment version, int length) {
        try {
            return (int) mtmlSystemGetDriverVersion.HANDLE.invokeExact(mtmlSystemGetDriverVersion$address(), sys, version, length);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlLibraryCountDevice {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlLibraryCountDevice$descriptor() {
        return mtmlLibraryCountDevice.DESC;
    }

    public MemorySegment mtmlLibraryCountDevice$address() {
        return mtmlLibraryCountDevice$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlLibraryCountDevice(const MtmlLibrary *lib, unsigned int *count)
     * }
     */
    public int mtmlLibraryCountDevice(MemorySegment lib, MemorySegment count) {
        try {
            return (int) mtmlLibraryCountDevice.HANDLE.invokeExact(mtmlLibraryCountDevice$address(), lib, count);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlLibraryInitDeviceByIndex {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlLibraryInitDeviceByIndex$descriptor() {
        return mtmlLibraryInitDeviceByIndex.DESC;
    }

    public MemorySegment mtmlLibraryInitDeviceByIndex$address() {
        return mtmlLibraryInitDeviceByIndex$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlLibraryInitDeviceByIndex(const MtmlLibrary *lib, unsigned int index, MtmlDevice **dev)
     * }
     */
    public int mtmlLibraryInitDeviceByIndex(MemorySegment lib, int index, MemorySegment dev) {
        try {
            return (int) mtmlLibraryInitDeviceByIndex.HANDLE.invokeExact(mtmlLibraryInitDeviceByIndex$address(), lib, index, dev);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlDeviceGetIndex {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlDeviceGetIndex$descriptor() {
        return mtmlDeviceGetIndex.DESC;
    }

    public MemorySegment mtmlDeviceGetIndex$address() {
        return mtmlDeviceGetIndex$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlDeviceGetIndex(const MtmlDevice *dev, unsigned int *index)
     * }
     */
    public int mtmlDeviceGetIndex(MemorySegment dev, MemorySegment index) {
        try {
            return (int) mtmlDeviceGetIndex.HANDLE.invokeExact(mtmlDeviceGetIndex$address(), dev, index);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlDeviceGetUUID {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlDeviceGetUUID$descriptor() {
        return mtmlDeviceGetUUID.DESC;
    }

    public MemorySegment mtmlDeviceGetUUID$address() {
        return mtmlDeviceGetUUID$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlDeviceGetUUID(const MtmlDevice *dev, char *uuid, unsigned int length)
     * }
     */
    public int mtmlDeviceGetUUID(MemorySegment dev, MemorySegment uuid, int length) {
        try {
            return (int) mtmlDeviceGetUUID.HANDLE.invokeExact(mtmlDeviceGetUUID$address(), dev, uuid, length);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlDeviceGetName {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlDeviceGetName$descriptor() {
        return mtmlDeviceGetName.DESC;
    }

    public MemorySegment mtmlDeviceGetName$address() {
        return mtmlDeviceGetName$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlDeviceGetName(const MtmlDevice *dev, char *name, unsigned int length)
     * }
     */
    public int mtmlDeviceGetName(MemorySegment dev, MemorySegment name, int length) {
        try {
            return (int) mtmlDeviceGetName.HANDLE.invokeExact(mtmlDeviceGetName$address(), dev, name, length);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlDeviceGetPciInfo {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlDeviceGetPciInfo$descriptor() {
        return mtmlDeviceGetPciInfo.DESC;
    }

    public MemorySegment mtmlDeviceGetPciInfo$address() {
        return mtmlDeviceGetPciInfo$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlDeviceGetPciInfo(const MtmlDevice *dev, MtmlPciInfo *pci)
     * }
     */
    public int mtmlDeviceGetPciInfo(MemorySegment dev, MemorySegment pci) {
        try {
            return (int) mtmlDeviceGetPciInfo.HANDLE.invokeExact(mtmlDeviceGetPciInfo$address(), dev, pci);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlDeviceGetGpuPath {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlDeviceGetGpuPath$descriptor() {
        return mtmlDeviceGetGpuPath.DESC;
    }

    public MemorySegment mtmlDeviceGetGpuPath$address() {
        return mtmlDeviceGetGpuPath$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlDeviceGetGpuPath(const MtmlDevice *dev, char *path, unsigned int length)
     * }
     */
    public int mtmlDeviceGetGpuPath(MemorySegment dev, MemorySegment path, int length) {
        try {
            return (int) mtmlDeviceGetGpuPath.HANDLE.invokeExact(mtmlDeviceGetGpuPath$address(), dev, path, length);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlDeviceGetMemoryAffinityWithinNode {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_INT, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlDeviceGetMemoryAffinityWithinNode$descriptor() {
        return mtmlDeviceGetMemoryAffinityWithinNode.DESC;
    }

    public MemorySegment mtmlDeviceGetMemoryAffinityWithinNode$address() {
        return mtmlDeviceGetMemoryAffinityWithinNode$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlDeviceGetMemoryAffinityWithinNode(const MtmlDevice *device, unsigned int nodeSetSize, unsigned long *nodeSet)
     * }
     */
    public int mtmlDeviceGetMemoryAffinityWithinNode(MemorySegment device, int nodeSetSize, MemorySegment nodeSet) {
        try {
            return (int) mtmlDeviceGetMemoryAffinityWithinNode.HANDLE.invokeExact(mtmlDeviceGetMemoryAffinityWithinNode$address(), device, nodeSetSize, nodeSet);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlDeviceInitMemory {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlDeviceInitMemory$descriptor() {
        return mtmlDeviceInitMemory.DESC;
    }

    public MemorySegment mtmlDeviceInitMemory$address() {
        return mtmlDeviceInitMemory$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlDeviceInitMemory(const MtmlDevice *dev, MtmlMemory **mem)
     * }
     */
    public int mtmlDeviceInitMemory(MemorySegment dev, MemorySegment mem) {
        try {
            return (int) mtmlDeviceInitMemory.HANDLE.invokeExact(mtmlDeviceInitMemory$address(), dev, mem);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlMemoryGetTotal {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlMemoryGetTotal$descriptor() {
        return mtmlMemoryGetTotal.DESC;
    }

    public MemorySegment mtmlMemoryGetTotal$address() {
        return mtmlMemoryGetTotal$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlMemoryGetTotal(const MtmlMemory *mem, unsigned long long *total)
     * }
     */
    public int mtmlMemoryGetTotal(MemorySegment mem, MemorySegment total) {
        try {
            return (int) mtmlMemoryGetTotal.HANDLE.invokeExact(mtmlMemoryGetTotal$address(), mem, total);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlMemoryGetUsed {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlMemoryGetUsed$descriptor() {
        return mtmlMemoryGetUsed.DESC;
    }

    public MemorySegment mtmlMemoryGetUsed$address() {
        return mtmlMemoryGetUsed$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlMemoryGetUsed(const MtmlMemory *mem, unsigned long long *used)
     * }
     */
    public int mtmlMemoryGetUsed(MemorySegment mem, MemorySegment used) {
        try {
            return (int) mtmlMemoryGetUsed.HANDLE.invokeExact(mtmlMemoryGetUsed$address(), mem, used);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlMemoryGetRetiredPagesPendingStatus {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_INT, C_POINTER, C_POINTER);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlMemoryGetRetiredPagesPendingStatus$descriptor() {
        return mtmlMemoryGetRetiredPagesPendingStatus.DESC;
    }

    public MemorySegment mtmlMemoryGetRetiredPagesPendingStatus$address() {
        return mtmlMemoryGetRetiredPagesPendingStatus$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * MtmlReturn mtmlMemoryGetRetiredPagesPendingStatus(const MtmlMemory *mem, MtmlRetiredPagesPendingState *isPending)
     * }
     */
    public int mtmlMemoryGetRetiredPagesPendingStatus(MemorySegment mem, MemorySegment isPending) {
        try {
            return (int) mtmlMemoryGetRetiredPagesPendingStatus.HANDLE.invokeExact(mtmlMemoryGetRetiredPagesPendingStatus$address(), mem, isPending);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }

    private static final class mtmlErrorString {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(C_POINTER, C_INT);
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(DESC);
    }

    public static FunctionDescriptor mtmlErrorString$descriptor() {
        return mtmlErrorString.DESC;
    }

    public MemorySegment mtmlErrorString$address() {
        return mtmlErrorString$symbol.address();
    }

    /**
     * {@snippet lang=c :
     * const char *mtmlErrorString(MtmlReturn result)
     * }
     */
    public MemorySegment mtmlErrorString(int result) {
        try {
            return (MemorySegment) mtmlErrorString.HANDLE.invokeExact(mtmlErrorString$address(), result);
        } catch (Error | RuntimeException ex) {
            throw ex;
        } catch (Throwable ex) {
            throw new AssertionError("should not reach here", ex);
        }
    }
}
