package io.hami.nativebind.hamicore;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.MemoryLayout.PathElement.sequenceElement;

import io.hami.nativebind.hamicore.raw.hami_shared_region_h;
import io.hami.nativebind.hamicore.raw.shared_region_t;
import io.hami.nativebind.hamicore.raw.shared_region_v0_t;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemoryLayout.PathElement;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.BiFunction;
import java.util.function.LongFunction;

/**
 * One of HAMi-core's two region layouts, with access to every field the reader copies. Both versions share
 * field names, so one set of layout paths serves both; version 0 lacks the version fields and
 * last_kernel_time.
 *
 * <p>Each field is read at an offset computed once from its layout path (base plus index times stride), with the
 * header's {@code static final} value layouts: a VarHandle held per enum constant is no constant to the JIT, and
 * calling it cost more than the rest of the copy (ScanBenchmark).
 */
@SuppressWarnings("ImmutableEnumChecker") // GroupLayout and Field are immutable, only not annotated so
enum RegionLayout {
    V0(shared_region_v0_t.layout()),
    V1(shared_region_t.layout());

    /** initialized_flag and, in version 1, the two version fields: what must be there to tell a file apart. */
    static final long HEADER_BYTES = 12;

    private static final ValueLayout.OfInt INT = hami_shared_region_h.C_INT;
    private static final ValueLayout.OfLong LONG = hami_shared_region_h.C_LONG;

    final GroupLayout layout;
    /** The file size HAMi-core creates: it seeks to sizeof(region) and writes one byte. */
    final long fileSize;

    private final long uuidSize;
    private final Field uuids;
    private final Field deviceNum;
    private final Field limit;
    private final Field smLimit;
    private final Field procNum;
    private final Field pid;
    private final Field hostPid;
    private final Field context;
    private final Field module;
    private final Field data;
    private final Field offset;
    private final Field total;
    private final Field smUtil;
    private final Field priority;
    private final Field recentKernel;
    private final Field utilizationSwitch;
    private final Field lastKernelTime;

    RegionLayout(GroupLayout layout) {
        this.layout = layout;
        this.fileSize = layout.byteSize() + 1;
        this.uuidSize = hami_shared_region_h.SHARED_REGION_UUID_SIZE();
        this.uuids = indexed(d -> new PathElement[] {groupElement("uuids"), sequenceElement(d)});
        this.deviceNum = scalar("device_num");
        this.limit = indexed(d -> new PathElement[] {groupElement("limit"), sequenceElement(d)});
        this.smLimit = indexed(d -> new PathElement[] {groupElement("sm_limit"), sequenceElement(d)});
        this.procNum = scalar("proc_num");
        this.pid = indexed(p -> new PathElement[] {groupElement("procs"), sequenceElement(p), groupElement("pid")});
        this.hostPid =
                indexed(p -> new PathElement[] {groupElement("procs"), sequenceElement(p), groupElement("hostpid")});
        this.context = used("context_size");
        this.module = used("module_size");
        this.data = used("data_size");
        this.offset = used("offset");
        this.total = used("total");
        this.smUtil = field((p, d) -> new PathElement[] {
            groupElement("procs"),
            sequenceElement(p),
            groupElement("device_util"),
            sequenceElement(d),
            groupElement("sm_util")
        });
        this.priority = scalar("priority");
        this.recentKernel = scalar("recent_kernel");
        this.utilizationSwitch = scalar("utilization_switch");
        this.lastKernelTime = has(layout, "last_kernel_time") ? scalar("last_kernel_time") : null;
    }

    /** A field at {@code base + i * first + j * second}. */
    private record Field(long base, long first, long second) {
        long at(long i, long j) {
            return base + i * first + j * second;
        }
    }

    /**
     * Which layout a file holds, from its size and first fields, or null when none: version 0 has no version
     * field (its second int is sm_init_flag), so HAMi-core's exact version-0 file size identifies it, as
     * upstream's monitor does; otherwise the major version must be 1 and the file large enough.
     */
    static RegionLayout detect(long size, int major) {
        if (size == V0.fileSize) {
            return V0;
        }
        return major == 1 && size >= V1.layout.byteSize() ? V1 : null;
    }

    int majorVersion(MemorySegment region) {
        return this == V0 ? 0 : shared_region_t.major_version(region);
    }

    int minorVersion(MemorySegment region) {
        return this == V0 ? 0 : shared_region_t.minor_version(region);
    }

    long deviceNum(MemorySegment r) {
        return r.get(LONG, deviceNum.base);
    }

    MemorySegment uuid(MemorySegment r, long device) {
        return r.asSlice(uuids.at(device, 0), uuidSize);
    }

    long limit(MemorySegment r, long device) {
        return r.get(LONG, limit.at(device, 0));
    }

    long smLimit(MemorySegment r, long device) {
        return r.get(LONG, smLimit.at(device, 0));
    }

    int procNum(MemorySegment r) {
        return r.get(INT, procNum.base);
    }

    int pid(MemorySegment r, long slot) {
        return r.get(INT, pid.at(slot, 0));
    }

    int hostPid(MemorySegment r, long slot) {
        return r.get(INT, hostPid.at(slot, 0));
    }

    DeviceMemory memory(MemorySegment r, long slot, long device) {
        return new DeviceMemory(
                r.get(LONG, context.at(slot, device)),
                r.get(LONG, module.at(slot, device)),
                r.get(LONG, data.at(slot, device)),
                r.get(LONG, offset.at(slot, device)),
                r.get(LONG, total.at(slot, device)));
    }

    long smUtil(MemorySegment r, long slot, long device) {
        return r.get(LONG, smUtil.at(slot, device));
    }

    Control control(MemorySegment r) {
        return new Control(
                r.get(INT, priority.base),
                r.get(INT, recentKernel.base),
                r.get(INT, utilizationSwitch.base),
                lastKernelTime == null ? 0 : r.get(LONG, lastKernelTime.base));
    }

    /** Plain stores, as upstream's monitor makes them; HAMi-core reads the fields without a lock. */
    void writeControl(MemorySegment r, int recentKernelValue, int utilizationSwitchValue) {
        r.set(INT, recentKernel.base, recentKernelValue);
        r.set(INT, utilizationSwitch.base, utilizationSwitchValue);
    }

    private Field used(String name) {
        return field((p, d) -> new PathElement[] {
            groupElement("procs"), sequenceElement(p), groupElement("used"), sequenceElement(d), groupElement(name)
        });
    }

    private Field scalar(String name) {
        return new Field(layout.byteOffset(groupElement(name)), 0, 0);
    }

    private Field indexed(LongFunction<PathElement[]> path) {
        return field((i, j) -> path.apply(i));
    }

    /** The offsets of the path at indices (0, 0), (1, 0) and (0, 1) give base and strides. */
    private Field field(BiFunction<Long, Long, PathElement[]> path) {
        long base = layout.byteOffset(path.apply(0L, 0L));
        return new Field(
                base, layout.byteOffset(path.apply(1L, 0L)) - base, layout.byteOffset(path.apply(0L, 1L)) - base);
    }

    private static boolean has(GroupLayout layout, String member) {
        return layout.memberLayouts().stream()
                .map(MemoryLayout::name)
                .anyMatch(name -> name.isPresent() && name.get().equals(member));
    }
}
