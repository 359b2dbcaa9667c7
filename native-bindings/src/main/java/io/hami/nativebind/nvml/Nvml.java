package io.hami.nativebind.nvml;

import io.hami.nativebind.NativeLibrary;
import io.hami.nativebind.NativeStrings;
import io.hami.nativebind.VendorStatusException;
import io.hami.nativebind.nvml.raw.nvmlMemory_t;
import io.hami.nativebind.nvml.raw.nvmlMemory_v2_t;
import io.hami.nativebind.nvml.raw.nvmlPciInfo_t;
import io.hami.nativebind.nvml.raw.nvmlUtilization_t;
import io.hami.nativebind.nvml.raw.nvml_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * NVIDIA NVML for a device plugin: initialised on open, shut down on close (NVML counts both).
 * Errors surface as {@link VendorStatusException} with NVML's own text; a missing library or function as
 * {@link io.hami.nativebind.NativeLibraryException}. Thread-safe: every call uses its own arena.
 */
public final class Nvml implements AutoCloseable {

    public static final String SONAME = "libnvidia-ml.so.1";
    static final String VENDOR = "NVML";
    /** What the wrapper calls first: a file without them is no usable library, checked before it is loaded. */
    static final List<String> REQUIRED = List.of("nvmlInit_v2", "nvmlErrorString", "nvmlShutdown");

    public static final long EVENT_SINGLE_BIT_ECC = nvml_h.nvmlEventTypeSingleBitEccError();
    public static final long EVENT_DOUBLE_BIT_ECC = nvml_h.nvmlEventTypeDoubleBitEccError();
    public static final long EVENT_XID_CRITICAL_ERROR = nvml_h.nvmlEventTypeXidCriticalError();
    public static final int ERROR_NOT_SUPPORTED = nvml_h.NVML_ERROR_NOT_SUPPORTED();
    public static final int ERROR_GPU_IS_LOST = nvml_h.NVML_ERROR_GPU_IS_LOST();
    public static final int ERROR_INVALID_ARGUMENT = nvml_h.NVML_ERROR_INVALID_ARGUMENT();
    /** NVLink indexes a GPU may have: 0 to this minus 1. */
    public static final int NVLINK_MAX_LINKS = nvml_h.NVML_NVLINK_MAX_LINKS();

    private final nvml_h nvml;
    private final boolean hasMemoryV2;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Nvml(nvml_h nvml) {
        this.nvml = nvml;
        this.hasMemoryV2 = nvml.library().has("nvmlDeviceGetMemoryInfo_v2");
    }

    /** Loads {@value #SONAME} the way the dynamic linker finds it and initialises NVML. */
    public static Nvml open() {
        return init(NativeLibrary.open(VENDOR, SONAME, REQUIRED));
    }

    /** Loads the NVML library file at {@code library} (a driver's or a mock's) and initialises it. */
    public static Nvml open(Path library) {
        return init(NativeLibrary.open(VENDOR, library, REQUIRED));
    }

    private static Nvml init(NativeLibrary library) {
        Nvml nvml = new Nvml(new nvml_h(library));
        nvml.check(nvml.nvml.nvmlInit_v2(), "nvmlInit_v2");
        return nvml;
    }

    public String driverVersion() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(nvml_h.NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE());
            check(nvml.nvmlSystemGetDriverVersion(buffer, (int) buffer.byteSize()), "nvmlSystemGetDriverVersion");
            return NativeStrings.decode(buffer);
        }
    }

    /** The CUDA driver API version as NVML encodes it, e.g. 12040 for 12.4. */
    public int cudaDriverVersion() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment version = arena.allocate(ValueLayout.JAVA_INT);
            check(nvml.nvmlSystemGetCudaDriverVersion(version), "nvmlSystemGetCudaDriverVersion");
            return version.get(ValueLayout.JAVA_INT, 0);
        }
    }

    public int deviceCount() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            check(nvml.nvmlDeviceGetCount_v2(count), "nvmlDeviceGetCount_v2");
            return count.get(ValueLayout.JAVA_INT, 0);
        }
    }

    public List<NvmlDevice> devices() {
        int count = deviceCount();
        List<NvmlDevice> devices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            devices.add(device(i));
        }
        return List.copyOf(devices);
    }

    public NvmlDevice device(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment device = handle(arena, index);
            MemorySegment pci = nvmlPciInfo_t.allocate(arena);
            check(nvml.nvmlDeviceGetPciInfo_v3(device, pci), "nvmlDeviceGetPciInfo_v3");
            MemorySegment ints = arena.allocate(ValueLayout.JAVA_INT, 2);
            check(nvml.nvmlDeviceGetMinorNumber(device, ints), "nvmlDeviceGetMinorNumber");
            int minor = ints.get(ValueLayout.JAVA_INT, 0);
            check(
                    nvml.nvmlDeviceGetCudaComputeCapability(device, ints, ints.asSlice(4)),
                    "nvmlDeviceGetCudaComputeCapability");
            return new NvmlDevice(
                    index,
                    uuid(arena, device),
                    name(arena, device),
                    memoryIfSupported(arena, device),
                    pciInfo(pci),
                    minor,
                    numaNode(arena, device),
                    ints.get(ValueLayout.JAVA_INT, 0),
                    ints.get(ValueLayout.JAVA_INT, 4));
        }
    }

    /** Memory of one GPU, through nvmlDeviceGetMemoryInfo_v2 where the driver has it, else the v1 call. */
    public NvmlMemory memory(int index) {
        try (Arena arena = Arena.ofConfined()) {
            return memory(arena, handle(arena, index));
        }
    }

    /** Memory of one GPU as {@link #memory(int)}; empty where NVML answers NOT_SUPPORTED for it. */
    public Optional<NvmlMemory> memoryIfSupported(int index) {
        try (Arena arena = Arena.ofConfined()) {
            return memoryIfSupported(arena, handle(arena, index));
        }
    }

    /** Utilisation of one GPU over the driver's last sample period: nvmlDeviceGetUtilizationRates. */
    public NvmlUtilization utilization(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment device = handle(arena, index);
            MemorySegment rates = nvmlUtilization_t.allocate(arena);
            check(nvml.nvmlDeviceGetUtilizationRates(device, rates), "nvmlDeviceGetUtilizationRates");
            // unsigned int in C; percentages fit an int
            return new NvmlUtilization(nvmlUtilization_t.gpu(rates), nvmlUtilization_t.memory(rates));
        }
    }

    /** How close GPUs {@code index1} and {@code index2} are on the PCIe tree: nvmlDeviceGetTopologyCommonAncestor. */
    public NvmlTopologyLevel topologyCommonAncestor(int index1, int index2) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment level = arena.allocate(ValueLayout.JAVA_INT);
            check(
                    nvml.nvmlDeviceGetTopologyCommonAncestor(handle(arena, index1), handle(arena, index2), level),
                    "nvmlDeviceGetTopologyCommonAncestor");
            int code = level.get(ValueLayout.JAVA_INT, 0);
            return NvmlTopologyLevel.of(code)
                    .orElseThrow(() -> new IllegalStateException("NVML nvmlDeviceGetTopologyCommonAncestor answered"
                            + " the unknown topology level " + code + " for GPUs " + index1 + " and " + index2));
        }
    }

    /** Whether NVLink {@code link} of GPU {@code index} is active: nvmlDeviceGetNvLinkState. */
    public boolean nvLinkActive(int index, int link) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = arena.allocate(ValueLayout.JAVA_INT);
            check(nvml.nvmlDeviceGetNvLinkState(handle(arena, index), link, state), "nvmlDeviceGetNvLinkState");
            return state.get(ValueLayout.JAVA_INT, 0) == nvml_h.NVML_FEATURE_ENABLED();
        }
    }

    /** The PCI location of what NVLink {@code link} of GPU {@code index} leads to: nvmlDeviceGetNvLinkRemotePciInfo_v2. */
    public NvmlPciInfo nvLinkRemotePciInfo(int index, int link) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pci = nvmlPciInfo_t.allocate(arena);
            check(
                    nvml.nvmlDeviceGetNvLinkRemotePciInfo_v2(handle(arena, index), link, pci),
                    "nvmlDeviceGetNvLinkRemotePciInfo_v2");
            return pciInfo(pci);
        }
    }

    /**
     * The PCI bus ids at the far end of the active NVLinks of GPU {@code index}, one per link in link order (a peer
     * reached by 12 links is listed 12 times). A link NVML answers NOT_SUPPORTED or INVALID_ARGUMENT for is no link,
     * as upstream's plugin reads them, so a GPU without NVLink has none.
     */
    public List<String> nvLinkRemoteBusIds(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment device = handle(arena, index);
            MemorySegment state = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment pci = nvmlPciInfo_t.allocate(arena);
            List<String> remotes = new ArrayList<>();
            for (int link = 0; link < NVLINK_MAX_LINKS; link++) {
                int rc = nvml.nvmlDeviceGetNvLinkState(device, link, state);
                if (noSuchLink(rc)) {
                    continue;
                }
                check(rc, "nvmlDeviceGetNvLinkState");
                if (state.get(ValueLayout.JAVA_INT, 0) != nvml_h.NVML_FEATURE_ENABLED()) {
                    continue;
                }
                rc = nvml.nvmlDeviceGetNvLinkRemotePciInfo_v2(device, link, pci);
                if (noSuchLink(rc)) {
                    continue;
                }
                check(rc, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
                remotes.add(NativeStrings.decode(nvmlPciInfo_t.busId(pci)));
            }
            return List.copyOf(remotes);
        }
    }

    /** What NVLink {@code link} of GPU {@code index} leads to: nvmlDeviceGetNvLinkRemoteDeviceType. */
    public NvmlNvLinkDeviceType nvLinkRemoteDeviceType(int index, int link) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment type = arena.allocate(ValueLayout.JAVA_INT);
            check(
                    nvml.nvmlDeviceGetNvLinkRemoteDeviceType(handle(arena, index), link, type),
                    "nvmlDeviceGetNvLinkRemoteDeviceType");
            return NvmlNvLinkDeviceType.of(type.get(ValueLayout.JAVA_INT, 0));
        }
    }

    /**
     * How many active NVLinks of GPU {@code index} lead to an NVSwitch, skipping links NVML answers NOT_SUPPORTED or
     * INVALID_ARGUMENT for, as upstream's plugin counts them.
     */
    public int nvSwitchLinks(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment device = handle(arena, index);
            MemorySegment out = arena.allocate(ValueLayout.JAVA_INT);
            int count = 0;
            for (int link = 0; link < NVLINK_MAX_LINKS; link++) {
                int rc = nvml.nvmlDeviceGetNvLinkState(device, link, out);
                if (noSuchLink(rc)) {
                    continue;
                }
                check(rc, "nvmlDeviceGetNvLinkState");
                if (out.get(ValueLayout.JAVA_INT, 0) != nvml_h.NVML_FEATURE_ENABLED()) {
                    continue;
                }
                rc = nvml.nvmlDeviceGetNvLinkRemoteDeviceType(device, link, out);
                if (noSuchLink(rc)) {
                    continue;
                }
                check(rc, "nvmlDeviceGetNvLinkRemoteDeviceType");
                if (out.get(ValueLayout.JAVA_INT, 0) == nvml_h.NVML_NVLINK_DEVICE_TYPE_SWITCH()) {
                    count++;
                }
            }
            return count;
        }
    }

    private static boolean noSuchLink(int rc) {
        return rc == ERROR_NOT_SUPPORTED || rc == ERROR_INVALID_ARGUMENT;
    }

    /**
     * Registers every GPU for the given event types (masked by what each supports) in a new event set.
     * GPUs that support none of them are listed in {@link NvmlEventSet#unwatchedDevices()}.
     */
    public NvmlEventSet watch(long eventTypes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            check(nvml.nvmlEventSetCreate(out), "nvmlEventSetCreate");
            MemorySegment set = out.get(ValueLayout.ADDRESS, 0);
            List<Integer> unwatched = new ArrayList<>();
            try {
                MemorySegment supported = arena.allocate(ValueLayout.JAVA_LONG);
                int count = deviceCount();
                for (int i = 0; i < count; i++) {
                    MemorySegment device = handle(arena, i);
                    int rc = nvml.nvmlDeviceGetSupportedEventTypes(device, supported);
                    if (rc != ERROR_NOT_SUPPORTED) {
                        check(rc, "nvmlDeviceGetSupportedEventTypes");
                    }
                    long mask = rc == ERROR_NOT_SUPPORTED ? 0 : eventTypes & supported.get(ValueLayout.JAVA_LONG, 0);
                    rc = mask == 0 ? ERROR_NOT_SUPPORTED : nvml.nvmlDeviceRegisterEvents(device, mask, set);
                    if (rc == ERROR_NOT_SUPPORTED) {
                        unwatched.add(i); // too old to health-check, which is not the same as unhealthy
                    } else {
                        check(rc, "nvmlDeviceRegisterEvents");
                    }
                }
            } catch (RuntimeException e) {
                nvml.nvmlEventSetFree(set);
                throw e;
            }
            return new NvmlEventSet(this, set, unwatched);
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            check(nvml.nvmlShutdown(), "nvmlShutdown");
        }
    }

    nvml_h raw() {
        return nvml;
    }

    MemorySegment handle(Arena arena, int index) {
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        check(nvml.nvmlDeviceGetHandleByIndex_v2(index, out), "nvmlDeviceGetHandleByIndex_v2");
        return out.get(ValueLayout.ADDRESS, 0);
    }

    String uuid(Arena arena, MemorySegment device) {
        MemorySegment buffer = arena.allocate(nvml_h.NVML_DEVICE_UUID_V2_BUFFER_SIZE());
        check(nvml.nvmlDeviceGetUUID(device, buffer, (int) buffer.byteSize()), "nvmlDeviceGetUUID");
        return NativeStrings.decode(buffer);
    }

    private String name(Arena arena, MemorySegment device) {
        MemorySegment buffer = arena.allocate(nvml_h.NVML_DEVICE_NAME_V2_BUFFER_SIZE());
        check(nvml.nvmlDeviceGetName(device, buffer, (int) buffer.byteSize()), "nvmlDeviceGetName");
        return NativeStrings.decode(buffer);
    }

    private static NvmlPciInfo pciInfo(MemorySegment pci) {
        return new NvmlPciInfo(
                NativeStrings.decode(nvmlPciInfo_t.busId(pci)),
                nvmlPciInfo_t.domain(pci),
                nvmlPciInfo_t.bus(pci),
                nvmlPciInfo_t.device(pci),
                nvmlPciInfo_t.pciDeviceId(pci),
                nvmlPciInfo_t.pciSubSystemId(pci));
    }

    private Optional<NvmlMemory> memoryIfSupported(Arena arena, MemorySegment device) {
        try {
            return Optional.of(memory(arena, device));
        } catch (VendorStatusException e) {
            if (e.code() == ERROR_NOT_SUPPORTED) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private NvmlMemory memory(Arena arena, MemorySegment device) {
        if (hasMemoryV2) {
            MemorySegment memory = nvmlMemory_v2_t.allocate(arena);
            nvmlMemory_v2_t.version(memory, nvml_h.nvmlMemory_v2());
            check(nvml.nvmlDeviceGetMemoryInfo_v2(device, memory), "nvmlDeviceGetMemoryInfo_v2");
            return new NvmlMemory(
                    nvmlMemory_v2_t.total(memory),
                    nvmlMemory_v2_t.reserved(memory),
                    nvmlMemory_v2_t.free(memory),
                    nvmlMemory_v2_t.used(memory));
        }
        MemorySegment memory = nvmlMemory_t.allocate(arena);
        check(nvml.nvmlDeviceGetMemoryInfo(device, memory), "nvmlDeviceGetMemoryInfo");
        return new NvmlMemory(nvmlMemory_t.total(memory), 0, nvmlMemory_t.free(memory), nvmlMemory_t.used(memory));
    }

    private int numaNode(Arena arena, MemorySegment device) {
        MemorySegment node = arena.allocate(ValueLayout.JAVA_INT);
        int rc = nvml.nvmlDeviceGetNumaNodeId(device, node);
        if (rc == ERROR_NOT_SUPPORTED) {
            return -1;
        }
        check(rc, "nvmlDeviceGetNumaNodeId");
        return node.get(ValueLayout.JAVA_INT, 0);
    }

    void check(int rc, String function) {
        if (rc != nvml_h.NVML_SUCCESS()) {
            throw new VendorStatusException(
                    VENDOR, function, rc, NativeStrings.decodePointer(nvml.nvmlErrorString(rc), "unknown error " + rc));
        }
    }
}
