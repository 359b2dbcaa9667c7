package io.hami.nativebind.cndev;

import io.hami.nativebind.NativeLibrary;
import io.hami.nativebind.NativeStrings;
import io.hami.nativebind.VendorStatusException;
import io.hami.nativebind.cndev.raw.cndevCardHealthState_t;
import io.hami.nativebind.cndev.raw.cndevCardInfo_t;
import io.hami.nativebind.cndev.raw.cndevMemoryInfoV2_t;
import io.hami.nativebind.cndev.raw.cndevNUMANodeId_t;
import io.hami.nativebind.cndev.raw.cndevPCIeInfoV2_t;
import io.hami.nativebind.cndev.raw.cndevSMluInfo_t;
import io.hami.nativebind.cndev.raw.cndevSMluProfileIdInfo_t;
import io.hami.nativebind.cndev.raw.cndevSMluProfileInfo_t;
import io.hami.nativebind.cndev.raw.cndevSMluSet_t;
import io.hami.nativebind.cndev.raw.cndevUUID_t;
import io.hami.nativebind.cndev.raw.cndev_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Cambricon CNDev for a device plugin: devices, health (CNDev is polled; the plugin does so every second)
 * and the sMLU profiles and instances of dynamic-smlu mode. Versioned structs are sent as CNDEV_VERSION_6.
 * Errors surface as {@link VendorStatusException} with CNDev's own text. Thread-safe.
 */
public final class Cndev implements AutoCloseable {

    public static final String SONAME = "libcndev.so";
    static final String VENDOR = "CNDev";
    /** What the wrapper calls first: a file without them is no usable library, checked before it is loaded. */
    static final List<String> REQUIRED = List.of("cndevInit", "cndevGetErrorString");

    public static final int DEVICE_GOOD = cndev_h.CNDEV_HEALTH_STATE_DEVICE_GOOD();
    public static final int DRIVER_RUNNING = cndev_h.CNDEV_HEALTH_STATE_DRIVER_RUNNING();
    private static final int VERSION = cndev_h.CNDEV_VERSION_6();

    private final cndev_h cndev;
    private final AtomicBoolean closed = new AtomicBoolean();

    private Cndev(cndev_h cndev) {
        this.cndev = cndev;
    }

    /** Loads {@value #SONAME} the way the dynamic linker finds it (the name the Cambricon plugin dlopens). */
    public static Cndev open() {
        return init(NativeLibrary.open(VENDOR, SONAME, REQUIRED));
    }

    public static Cndev open(Path library) {
        return init(NativeLibrary.open(VENDOR, library, REQUIRED));
    }

    private static Cndev init(NativeLibrary library) {
        Cndev cndev = new Cndev(new cndev_h(library));
        cndev.check(cndev.cndev.cndevInit(0), "cndevInit");
        return cndev;
    }

    /** {@code major.minor.build}. */
    public String driverVersion() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment v = arena.allocate(ValueLayout.JAVA_INT, 3);
            check(cndev.cndevGetDriverVersion(v, v.asSlice(4), v.asSlice(8)), "cndevGetDriverVersion");
            return v.getAtIndex(ValueLayout.JAVA_INT, 0) + "." + v.getAtIndex(ValueLayout.JAVA_INT, 1) + "."
                    + v.getAtIndex(ValueLayout.JAVA_INT, 2);
        }
    }

    public int deviceCount() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = cndevCardInfo_t.allocate(arena);
            cndevCardInfo_t.version(info, VERSION);
            check(cndev.cndevGetDeviceCount(info), "cndevGetDeviceCount");
            return cndevCardInfo_t.number(info);
        }
    }

    public List<CndevDevice> devices() {
        int count = deviceCount();
        List<CndevDevice> devices = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            devices.add(device(i));
        }
        return List.copyOf(devices);
    }

    public CndevDevice device(int index) {
        try (Arena arena = Arena.ofConfined()) {
            int handle = handle(arena, index);
            MemorySegment uuid = cndevUUID_t.allocate(arena);
            cndevUUID_t.version(uuid, VERSION);
            check(cndev.cndevGetUUID(uuid, handle), "cndevGetUUID");
            MemorySegment memory = cndevMemoryInfoV2_t.allocate(arena);
            check(cndev.cndevGetMemoryUsageV2(memory, handle), "cndevGetMemoryUsageV2");
            MemorySegment pci = cndevPCIeInfoV2_t.allocate(arena);
            check(cndev.cndevGetPCIeInfoV2(pci, handle), "cndevGetPCIeInfoV2");
            MemorySegment numa = cndevNUMANodeId_t.allocate(arena);
            cndevNUMANodeId_t.version(numa, VERSION);
            check(cndev.cndevGetNUMANodeIdByDevId(numa, handle), "cndevGetNUMANodeIdByDevId");
            MemorySegment minor = arena.allocate(ValueLayout.JAVA_INT);
            check(cndev.cndevDeviceGetMinorNumber(minor, handle), "cndevDeviceGetMinorNumber");
            return new CndevDevice(
                    index,
                    handle,
                    NativeStrings.decode(cndevUUID_t.uuid(uuid)), // not NUL-terminated when all 37 bytes are used
                    NativeStrings.decodePointer(cndev.cndevGetCardNameStringByDevId(handle), "Unknown"),
                    cndevMemoryInfoV2_t.physicalMemoryTotal(memory),
                    cndevMemoryInfoV2_t.physicalMemoryUsed(memory),
                    new CndevPciInfo(
                            cndevPCIeInfoV2_t.domain(pci),
                            cndevPCIeInfoV2_t.bus(pci),
                            cndevPCIeInfoV2_t.device(pci),
                            cndevPCIeInfoV2_t.function(pci),
                            Short.toUnsignedInt(cndevPCIeInfoV2_t.vendor(pci)),
                            cndevPCIeInfoV2_t.deviceId(pci),
                            cndevPCIeInfoV2_t.subsystemId(pci)),
                    cndevNUMANodeId_t.nodeId(numa),
                    minor.get(ValueLayout.JAVA_INT, 0));
        }
    }

    public CndevHealth health(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment state = cndevCardHealthState_t.allocate(arena);
            cndevCardHealthState_t.version(state, VERSION);
            check(cndev.cndevGetCardHealthState(state, handle(arena, index)), "cndevGetCardHealthState");
            return new CndevHealth(
                    cndevCardHealthState_t.health(state) == 1,
                    cndevCardHealthState_t.deviceState(state),
                    cndevCardHealthState_t.driverState(state));
        }
    }

    /** Creates an sMLU profile of {@code mluQuota} percent of the cores and {@code memoryBytes}; returns its id. */
    public int createSmluProfile(int index, int mluQuota, long memoryBytes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment set = cndevSMluSet_t.allocate(arena);
            cndevSMluSet_t.version(set, VERSION);
            cndevSMluSet_t.mluQuota(set, mluQuota);
            cndevSMluSet_t.memorySize(set, memoryBytes);
            MemorySegment id = arena.allocate(ValueLayout.JAVA_INT);
            check(cndev.cndevCreateSMluProfileInfo(set, id, handle(arena, index)), "cndevCreateSMluProfileInfo");
            return id.get(ValueLayout.JAVA_INT, 0);
        }
    }

    public List<CndevSmluProfile> smluProfiles(int index) {
        try (Arena arena = Arena.ofConfined()) {
            int handle = handle(arena, index);
            MemorySegment ids = cndevSMluProfileIdInfo_t.allocate(arena);
            cndevSMluProfileIdInfo_t.version(ids, VERSION);
            check(cndev.cndevGetSMluProfileIdInfo(ids, handle), "cndevGetSMluProfileIdInfo");
            int count = Math.min(cndevSMluProfileIdInfo_t.count(ids), (int)
                    cndevSMluProfileIdInfo_t.profileId$layout().elementCount());
            List<CndevSmluProfile> profiles = new ArrayList<>(count);
            MemorySegment info = cndevSMluProfileInfo_t.allocate(arena);
            for (int i = 0; i < count; i++) {
                cndevSMluProfileInfo_t.version(info, VERSION);
                int profileId = cndevSMluProfileIdInfo_t.profileId(ids, i);
                check(cndev.cndevGetSMluProfileInfo(info, profileId, handle), "cndevGetSMluProfileInfo");
                profiles.add(new CndevSmluProfile(
                        cndevSMluProfileInfo_t.profileId(info),
                        NativeStrings.decode(cndevSMluProfileInfo_t.name(info)),
                        cndevSMluProfileInfo_t.mluQuota(info, cndev_h.CNDEV_SMLU_MAX()),
                        cndevSMluProfileInfo_t.memorySize(info, cndev_h.CNDEV_SMLU_MAX()),
                        cndevSMluProfileInfo_t.totalCapacity(info),
                        cndevSMluProfileInfo_t.remainCapacity(info)));
            }
            return List.copyOf(profiles);
        }
    }

    public void destroySmluProfile(int index, int profileId) {
        try (Arena arena = Arena.ofConfined()) {
            check(cndev.cndevDestroySMluProfileInfo(profileId, handle(arena, index)), "cndevDestroySMluProfileInfo");
        }
    }

    /** Creates an instance of a profile; an empty name lets the driver choose one. Returns the instance handle. */
    public int createSmluInstance(int index, int profileId, String name) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment handle = arena.allocate(ValueLayout.JAVA_INT);
            check(
                    cndev.cndevCreateSMluInstanceByProfileId(
                            handle, profileId, handle(arena, index), arena.allocateFrom(name)),
                    "cndevCreateSMluInstanceByProfileId");
            return handle.get(ValueLayout.JAVA_INT, 0);
        }
    }

    public CndevSmluInstance smluInstance(int instanceHandle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = cndevSMluInfo_t.allocate(arena);
            cndevSMluInfo_t.version(info, VERSION);
            check(cndev.cndevGetSMluInstanceInfo(info, instanceHandle), "cndevGetSMluInstanceInfo");
            return instance(info);
        }
    }

    /** All sMLU instances of a card; grows the buffer when the driver reports more than it holds. */
    public List<CndevSmluInstance> smluInstances(int index) {
        try (Arena arena = Arena.ofConfined()) {
            int handle = handle(arena, index);
            MemorySegment count = arena.allocate(ValueLayout.JAVA_INT);
            int capacity = 8;
            while (true) {
                MemorySegment infos = cndevSMluInfo_t.allocateArray(capacity, arena);
                for (int i = 0; i < capacity; i++) {
                    cndevSMluInfo_t.version(cndevSMluInfo_t.asSlice(infos, i), VERSION);
                }
                count.set(ValueLayout.JAVA_INT, 0, capacity);
                int rc = cndev.cndevGetAllSMluInstanceInfo(count, infos, handle);
                int found = count.get(ValueLayout.JAVA_INT, 0);
                if (rc == cndev_h.CNDEV_ERROR_INSUFFICIENT_SPACE() && found > capacity) {
                    capacity = found;
                    continue;
                }
                check(rc, "cndevGetAllSMluInstanceInfo");
                List<CndevSmluInstance> instances = new ArrayList<>(found);
                for (int i = 0; i < found; i++) {
                    instances.add(instance(cndevSMluInfo_t.asSlice(infos, i)));
                }
                return List.copyOf(instances);
            }
        }
    }

    public void destroySmluInstance(int instanceHandle) {
        check(cndev.cndevDestroySMluInstanceByHandle(instanceHandle), "cndevDestroySMluInstanceByHandle");
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            check(cndev.cndevRelease(), "cndevRelease");
        }
    }

    private static CndevSmluInstance instance(MemorySegment info) {
        return new CndevSmluInstance(
                cndevSMluInfo_t.profileId(info),
                cndevSMluInfo_t.instanceId(info),
                NativeStrings.decode(cndevSMluInfo_t.uuid(info)),
                NativeStrings.decode(cndevSMluInfo_t.instanceName(info)),
                NativeStrings.decode(cndevSMluInfo_t.profileName(info)),
                NativeStrings.decode(cndevSMluInfo_t.devNodeName(info)),
                cndevSMluInfo_t.mluQuota(info, cndev_h.CNDEV_SMLU_MAX()),
                cndevSMluInfo_t.memorySize(info, cndev_h.CNDEV_SMLU_MAX()));
    }

    private int handle(Arena arena, int index) {
        MemorySegment handle = arena.allocate(ValueLayout.JAVA_INT);
        check(cndev.cndevGetDeviceHandleByIndex(index, handle), "cndevGetDeviceHandleByIndex");
        return handle.get(ValueLayout.JAVA_INT, 0);
    }

    private void check(int rc, String function) {
        if (rc != cndev_h.CNDEV_SUCCESS()) {
            throw new VendorStatusException(
                    VENDOR,
                    function,
                    rc,
                    NativeStrings.decodePointer(cndev.cndevGetErrorString(rc), "unknown error " + rc));
        }
    }
}
