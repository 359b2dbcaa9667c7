package io.hami.nativebind.mtml;

import io.hami.nativebind.LibraryNotFoundException;
import io.hami.nativebind.NativeLibrary;
import io.hami.nativebind.NativeStrings;
import io.hami.nativebind.VendorStatusException;
import io.hami.nativebind.mtml.raw.MtmlPciInfo;
import io.hami.nativebind.mtml.raw.mtml_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Moore Threads MTML for a device plugin. MTML has no event or health API, so {@link #healthy(int)} is
 * meant to be polled; it reads the retired-pages-pending state. Errors surface as
 * {@link VendorStatusException} with MTML's own text. Thread-safe.
 */
public final class Mtml implements AutoCloseable {

    public static final String SONAME = "libmtml.so.2";
    public static final String FALLBACK_SONAME = "libmtml.so";
    static final String VENDOR = "MTML";
    /** What the wrapper calls first: a file without them is no usable library, checked before it is loaded. */
    static final List<String> REQUIRED = List.of("mtmlLibraryInit", "mtmlErrorString", "mtmlLibraryShutDown");

    private final mtml_h mtml;
    private final MemorySegment library;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Mtml(mtml_h mtml, MemorySegment library) {
        this.mtml = mtml;
        this.library = library;
    }

    /** Loads {@value #SONAME}, else {@value #FALLBACK_SONAME}, the order MTML's consumers use. */
    public static Mtml open() {
        NativeLibrary library;
        try {
            library = NativeLibrary.open(VENDOR, SONAME, REQUIRED);
        } catch (LibraryNotFoundException first) {
            try {
                library = NativeLibrary.open(VENDOR, FALLBACK_SONAME, REQUIRED);
            } catch (LibraryNotFoundException second) {
                first.addSuppressed(second);
                throw first;
            }
        }
        return init(library);
    }

    public static Mtml open(Path library) {
        return init(NativeLibrary.open(VENDOR, library, REQUIRED));
    }

    private static Mtml init(NativeLibrary library) {
        mtml_h mtml = new mtml_h(library);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            check(mtml, mtml.mtmlLibraryInit(out), "mtmlLibraryInit");
            return new Mtml(mtml, out.get(ValueLayout.ADDRESS, 0));
        }
    }

    public String driverVersion() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            check(mtml.mtmlLibraryInitSystem(library, out), "mtmlLibraryInitSystem");
            MemorySegment buffer = arena.allocate(mtml_h.MTML_DRIVER_VERSION_BUFFER_SIZE());
            check(
                    mtml.mtmlSystemGetDriverVersion(out.get(ValueLayout.ADDRESS, 0), buffer, (int) buffer.byteSize()),
                    "mtmlSystemGetDriverVersion");
            return NativeStrings.decode(buffer);
        }
    }

    public int deviceCount() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            check(mtml.mtmlLibraryCountDevice(library, count), "mtmlLibraryCountDevice");
            return count.get(ValueLayout.JAVA_INT, 0);
        }
    }

    public List<MtmlDevice> devices() {
        int count = deviceCount();
        List<MtmlDevice> devices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            devices.add(device(i));
        }
        return List.copyOf(devices);
    }

    public MtmlDevice device(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment device = device(arena, index);
            MemorySegment ints = arena.allocate(ValueLayout.JAVA_INT);
            check(mtml.mtmlDeviceGetIndex(device, ints), "mtmlDeviceGetIndex");
            MemorySegment uuid = arena.allocate(mtml_h.MTML_DEVICE_UUID_BUFFER_SIZE());
            check(mtml.mtmlDeviceGetUUID(device, uuid, (int) uuid.byteSize()), "mtmlDeviceGetUUID");
            MemorySegment name = arena.allocate(mtml_h.MTML_DEVICE_NAME_BUFFER_SIZE());
            check(mtml.mtmlDeviceGetName(device, name, (int) name.byteSize()), "mtmlDeviceGetName");
            MemorySegment path = arena.allocate(mtml_h.MTML_DEVICE_PATH_BUFFER_SIZE());
            check(mtml.mtmlDeviceGetGpuPath(device, path, (int) path.byteSize()), "mtmlDeviceGetGpuPath");
            MemorySegment pci = MtmlPciInfo.allocate(arena);
            check(mtml.mtmlDeviceGetPciInfo(device, pci), "mtmlDeviceGetPciInfo");
            MemorySegment memory = memory(arena, device);
            MemorySegment bytes = arena.allocate(ValueLayout.JAVA_LONG, 2);
            check(mtml.mtmlMemoryGetTotal(memory, bytes), "mtmlMemoryGetTotal");
            check(mtml.mtmlMemoryGetUsed(memory, bytes.asSlice(8)), "mtmlMemoryGetUsed");
            return new MtmlDevice(
                    ints.get(ValueLayout.JAVA_INT, 0),
                    NativeStrings.decode(uuid),
                    NativeStrings.decode(name),
                    bytes.getAtIndex(ValueLayout.JAVA_LONG, 0),
                    bytes.getAtIndex(ValueLayout.JAVA_LONG, 1),
                    new MtmlPci(
                            NativeStrings.decode(MtmlPciInfo.sbdf(pci)),
                            MtmlPciInfo.segment(pci),
                            MtmlPciInfo.bus(pci),
                            MtmlPciInfo.device(pci),
                            MtmlPciInfo.pciDeviceId(pci),
                            MtmlPciInfo.pciSubsystemId(pci)),
                    NativeStrings.decode(path),
                    numaNode(arena, device));
        }
    }

    /** False while the GPU has retired pages pending, MTML's sign of failing memory. */
    public boolean healthy(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pending = arena.allocate(ValueLayout.JAVA_INT);
            check(
                    mtml.mtmlMemoryGetRetiredPagesPendingStatus(memory(arena, device(arena, index)), pending),
                    "mtmlMemoryGetRetiredPagesPendingStatus");
            return pending.get(ValueLayout.JAVA_INT, 0) == mtml_h.MTML_RETIRED_PAGES_PENDING_STATE_FALSE();
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            check(mtml.mtmlLibraryShutDown(library), "mtmlLibraryShutDown");
        }
    }

    private MemorySegment device(Arena arena, int index) {
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        check(mtml.mtmlLibraryInitDeviceByIndex(library, index, out), "mtmlLibraryInitDeviceByIndex");
        return out.get(ValueLayout.ADDRESS, 0);
    }

    private MemorySegment memory(Arena arena, MemorySegment device) {
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        check(mtml.mtmlDeviceInitMemory(device, out), "mtmlDeviceInitMemory");
        return out.get(ValueLayout.ADDRESS, 0);
    }

    private int numaNode(Arena arena, MemorySegment device) {
        MemorySegment nodeSet = arena.allocate(ValueLayout.JAVA_LONG);
        check(mtml.mtmlDeviceGetMemoryAffinityWithinNode(device, 1, nodeSet), "mtmlDeviceGetMemoryAffinityWithinNode");
        long bits = nodeSet.get(ValueLayout.JAVA_LONG, 0);
        return bits == 0 ? -1 : Long.numberOfTrailingZeros(bits);
    }

    private void check(int rc, String function) {
        check(mtml, rc, function);
    }

    private static void check(mtml_h mtml, int rc, String function) {
        if (rc != mtml_h.MTML_SUCCESS()) {
            throw new VendorStatusException(
                    VENDOR, function, rc, NativeStrings.decodePointer(mtml.mtmlErrorString(rc), "unknown error " + rc));
        }
    }
}
