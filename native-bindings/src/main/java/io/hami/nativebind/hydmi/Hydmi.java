package io.hami.nativebind.hydmi;

import io.hami.nativebind.NativeLibrary;
import io.hami.nativebind.NativeStrings;
import io.hami.nativebind.VendorStatusException;
import io.hami.nativebind.hydmi.raw.dmiDeviceInfo;
import io.hami.nativebind.hydmi.raw.hydmi_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Hygon's DCU Management Interface (libhydmi.so.1), used only to create and destroy virtual DCUs.
 * It has no init or shutdown call. Errors surface as {@link VendorStatusException} with hydmi's own text.
 */
public final class Hydmi {

    public static final String SONAME = "libhydmi.so.1";
    static final String VENDOR = "hydmi";
    /** What the wrapper calls first: a file without them is no usable library, checked before it is loaded. */
    static final List<String> REQUIRED = List.of("dmiGetDeviceCount", "dmiGetStatusString");

    private final hydmi_h dmi;

    private Hydmi(hydmi_h dmi) {
        this.dmi = dmi;
    }

    public static Hydmi open() {
        return new Hydmi(new hydmi_h(NativeLibrary.open(VENDOR, SONAME, REQUIRED)));
    }

    public static Hydmi open(Path library) {
        return new Hydmi(new hydmi_h(NativeLibrary.open(VENDOR, library, REQUIRED)));
    }

    public int deviceCount() {
        return intOut("dmiGetDeviceCount", dmi::dmiGetDeviceCount);
    }

    public DmiDevice device(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = dmiDeviceInfo.allocate(arena);
            check(dmi.dmiGetDeviceInfo(index, info), "dmiGetDeviceInfo");
            return new DmiDevice(
                    index,
                    NativeStrings.decode(dmiDeviceInfo.name(info)),
                    dmiDeviceInfo.compute_unit_count(info),
                    dmiDeviceInfo.global_mem_size(info),
                    dmiDeviceInfo.usage_mem_size(info));
        }
    }

    public DmiRemaining remaining(int index) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.JAVA_LONG, 2);
            check(dmi.dmiGetDeviceRemainingInfo(index, out, out.asSlice(8)), "dmiGetDeviceRemainingInfo");
            return new DmiRemaining(out.getAtIndex(ValueLayout.JAVA_LONG, 0), out.getAtIndex(ValueLayout.JAVA_LONG, 1));
        }
    }

    /** How many virtual devices one physical DCU can hold. */
    public int maxVirtualDevicesPerDevice() {
        return intOut("dmiGetMaxVDeviceCount", dmi::dmiGetMaxVDeviceCount);
    }

    /** Every virtual DCU on the node. Ids need not be dense, so this scans the id range until all are found. */
    public List<VirtualDevice> virtualDevices() {
        int count = intOut("dmiGetVDeviceCount", dmi::dmiGetVDeviceCount);
        int maxId = maxVirtualDevicesPerDevice() * deviceCount();
        List<VirtualDevice> devices = new ArrayList<>(count);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = dmiDeviceInfo.allocate(arena);
            for (int id = 0; id < maxId && devices.size() < count; id++) {
                int rc = dmi.dmiGetVDeviceInfo(id, info);
                if (rc == hydmi_h.DMI_STATUS_VDEV_NOT_EXIST()) {
                    continue;
                }
                check(rc, "dmiGetVDeviceInfo");
                devices.add(new VirtualDevice(
                        id,
                        dmiDeviceInfo.device_id(info),
                        NativeStrings.decode(dmiDeviceInfo.name(info)),
                        dmiDeviceInfo.compute_unit_count(info),
                        dmiDeviceInfo.global_mem_size(info)));
            }
        }
        return List.copyOf(devices);
    }

    /** Creates the virtual devices on one DCU (all or none) and returns them; hydmi itself returns no ids. */
    public List<VirtualDevice> createVirtualDevices(int deviceIndex, List<VirtualDeviceSpec> specs) {
        Set<Integer> before = new HashSet<>();
        virtualDevices().forEach(v -> before.add(v.id()));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment cus = arena.allocate(ValueLayout.JAVA_INT, specs.size());
            MemorySegment mem = arena.allocate(ValueLayout.JAVA_INT, specs.size());
            for (int i = 0; i < specs.size(); i++) {
                cus.setAtIndex(ValueLayout.JAVA_INT, i, specs.get(i).computeUnits());
                mem.setAtIndex(ValueLayout.JAVA_INT, i, specs.get(i).memoryMiB());
            }
            check(dmi.dmiCreateVDevices(deviceIndex, specs.size(), cus, mem), "dmiCreateVDevices");
        }
        return virtualDevices().stream().filter(v -> !before.contains(v.id())).toList();
    }

    public void destroyVirtualDevices(int deviceIndex) {
        check(dmi.dmiDestroyVDevices(deviceIndex), "dmiDestroyVDevices");
    }

    public void destroyVirtualDevice(int id) {
        check(dmi.dmiDestroySingleVDevice(id), "dmiDestroySingleVDevice");
    }

    private interface IntOutCall {
        int call(MemorySegment out);
    }

    private int intOut(String function, IntOutCall call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.JAVA_INT);
            check(call.call(out), function);
            return out.get(ValueLayout.JAVA_INT, 0);
        }
    }

    private void check(int rc, String function) {
        if (rc == hydmi_h.DMI_STATUS_SUCCESS()) {
            return;
        }
        String text = "unknown error " + rc;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            if (dmi.dmiGetStatusString(rc, out) == hydmi_h.DMI_STATUS_SUCCESS()) {
                text = NativeStrings.decodePointer(out.get(ValueLayout.ADDRESS, 0), text);
            }
        }
        throw new VendorStatusException(VENDOR, function, rc, text);
    }
}
