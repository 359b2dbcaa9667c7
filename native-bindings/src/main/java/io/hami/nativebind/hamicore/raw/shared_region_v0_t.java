package io.hami.nativebind.hamicore.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code shared_region_v0_t} of {@code hami_shared_region.h} in the shape jextract generates: the whole region, version 0 (file size {@code byteSize() + 1}).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class shared_region_v0_t {

    private shared_region_v0_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            hami_shared_region_h.C_INT.withName("initialized_flag"),
            hami_shared_region_h.C_INT.withName("sm_init_flag"),
            hami_shared_region_h.C_LONG.withName("owner_pid"),
            hami_shared_region_h.sem_t.withName("sem"),
            hami_shared_region_h.C_LONG.withName("device_num"),
            MemoryLayout.sequenceLayout(16, MemoryLayout.sequenceLayout(96, hami_shared_region_h.C_CHAR)).withName("uuids"),
            MemoryLayout.sequenceLayout(16, hami_shared_region_h.C_LONG).withName("limit"),
            MemoryLayout.sequenceLayout(16, hami_shared_region_h.C_LONG).withName("sm_limit"),
            MemoryLayout.sequenceLayout(1024, shrreg_proc_slot_v0_t.layout()).withName("procs"),
            hami_shared_region_h.C_INT.withName("proc_num"),
            hami_shared_region_h.C_INT.withName("utilization_switch"),
            hami_shared_region_h.C_INT.withName("recent_kernel"),
            hami_shared_region_h.C_INT.withName("priority")
    ).withName("shared_region_v0_t");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final ValueLayout.OfInt initialized_flag$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("initialized_flag"));
    private static final long initialized_flag$OFFSET = $LAYOUT.byteOffset(groupElement("initialized_flag"));

    public static ValueLayout.OfInt initialized_flag$layout() {
        return initialized_flag$LAYOUT;
    }

    public static long initialized_flag$offset() {
        return initialized_flag$OFFSET;
    }

    public static int initialized_flag(MemorySegment struct) {
        return struct.get(initialized_flag$LAYOUT, initialized_flag$OFFSET);
    }

    public static void initialized_flag(MemorySegment struct, int fieldValue) {
        struct.set(initialized_flag$LAYOUT, initialized_flag$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt sm_init_flag$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("sm_init_flag"));
    private static final long sm_init_flag$OFFSET = $LAYOUT.byteOffset(groupElement("sm_init_flag"));

    public static ValueLayout.OfInt sm_init_flag$layout() {
        return sm_init_flag$LAYOUT;
    }

    public static long sm_init_flag$offset() {
        return sm_init_flag$OFFSET;
    }

    public static int sm_init_flag(MemorySegment struct) {
        return struct.get(sm_init_flag$LAYOUT, sm_init_flag$OFFSET);
    }

    public static void sm_init_flag(MemorySegment struct, int fieldValue) {
        struct.set(sm_init_flag$LAYOUT, sm_init_flag$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong owner_pid$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("owner_pid"));
    private static final long owner_pid$OFFSET = $LAYOUT.byteOffset(groupElement("owner_pid"));

    public static ValueLayout.OfLong owner_pid$layout() {
        return owner_pid$LAYOUT;
    }

    public static long owner_pid$offset() {
        return owner_pid$OFFSET;
    }

    public static long owner_pid(MemorySegment struct) {
        return struct.get(owner_pid$LAYOUT, owner_pid$OFFSET);
    }

    public static void owner_pid(MemorySegment struct, long fieldValue) {
        struct.set(owner_pid$LAYOUT, owner_pid$OFFSET, fieldValue);
    }

    private static final GroupLayout sem$LAYOUT = (GroupLayout) $LAYOUT.select(groupElement("sem"));
    private static final long sem$OFFSET = $LAYOUT.byteOffset(groupElement("sem"));

    public static GroupLayout sem$layout() {
        return sem$LAYOUT;
    }

    public static long sem$offset() {
        return sem$OFFSET;
    }

    public static MemorySegment sem(MemorySegment struct) {
        return struct.asSlice(sem$OFFSET, sem$LAYOUT.byteSize());
    }

    private static final ValueLayout.OfLong device_num$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("device_num"));
    private static final long device_num$OFFSET = $LAYOUT.byteOffset(groupElement("device_num"));

    public static ValueLayout.OfLong device_num$layout() {
        return device_num$LAYOUT;
    }

    public static long device_num$offset() {
        return device_num$OFFSET;
    }

    public static long device_num(MemorySegment struct) {
        return struct.get(device_num$LAYOUT, device_num$OFFSET);
    }

    public static void device_num(MemorySegment struct, long fieldValue) {
        struct.set(device_num$LAYOUT, device_num$OFFSET, fieldValue);
    }

    private static final SequenceLayout uuids$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("uuids"));
    private static final long uuids$OFFSET = $LAYOUT.byteOffset(groupElement("uuids"));

    public static SequenceLayout uuids$layout() {
        return uuids$LAYOUT;
    }

    public static long uuids$offset() {
        return uuids$OFFSET;
    }

    public static MemorySegment uuids(MemorySegment struct) {
        return struct.asSlice(uuids$OFFSET, uuids$LAYOUT.byteSize());
    }

    public static MemorySegment uuids(MemorySegment struct, long index0) {
        long size = uuids$LAYOUT.elementLayout().byteSize();
        return struct.asSlice(uuids$OFFSET + index0 * size, size);
    }

    private static final SequenceLayout limit$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("limit"));
    private static final long limit$OFFSET = $LAYOUT.byteOffset(groupElement("limit"));

    public static SequenceLayout limit$layout() {
        return limit$LAYOUT;
    }

    public static long limit$offset() {
        return limit$OFFSET;
    }

    public static MemorySegment limit(MemorySegment struct) {
        return struct.asSlice(limit$OFFSET, limit$LAYOUT.byteSize());
    }

    public static long limit(MemorySegment struct, long index0) {
        return struct.get(hami_shared_region_h.C_LONG, limit$OFFSET + index0 * hami_shared_region_h.C_LONG.byteSize());
    }

    public static void limit(MemorySegment struct, long index0, long fieldValue) {
        struct.set(hami_shared_region_h.C_LONG, limit$OFFSET + index0 * hami_shared_region_h.C_LONG.byteSize(), fieldValue);
    }

    private static final SequenceLayout sm_limit$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("sm_limit"));
    private static final long sm_limit$OFFSET = $LAYOUT.byteOffset(groupElement("sm_limit"));

    public static SequenceLayout sm_limit$layout() {
        return sm_limit$LAYOUT;
    }

    public static long sm_limit$offset() {
        return sm_limit$OFFSET;
    }

    public static MemorySegment sm_limit(MemorySegment struct) {
        return struct.asSlice(sm_limit$OFFSET, sm_limit$LAYOUT.byteSize());
    }

    public static long sm_limit(MemorySegment struct, long index0) {
        return struct.get(hami_shared_region_h.C_LONG, sm_limit$OFFSET + index0 * hami_shared_region_h.C_LONG.byteSize());
    }

    public static void sm_limit(MemorySegment struct, long index0, long fieldValue) {
        struct.set(hami_shared_region_h.C_LONG, sm_limit$OFFSET + index0 * hami_shared_region_h.C_LONG.byteSize(), fieldValue);
    }

    private static final SequenceLayout procs$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("procs"));
    private static final long procs$OFFSET = $LAYOUT.byteOffset(groupElement("procs"));

    public static SequenceLayout procs$layout() {
        return procs$LAYOUT;
    }

    public static long procs$offset() {
        return procs$OFFSET;
    }

    public static MemorySegment procs(MemorySegment struct) {
        return struct.asSlice(procs$OFFSET, procs$LAYOUT.byteSize());
    }

    public static MemorySegment procs(MemorySegment struct, long index0) {
        return shrreg_proc_slot_v0_t.asSlice(procs(struct), index0);
    }

    private static final ValueLayout.OfInt proc_num$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("proc_num"));
    private static final long proc_num$OFFSET = $LAYOUT.byteOffset(groupElement("proc_num"));

    public static ValueLayout.OfInt proc_num$layout() {
        return proc_num$LAYOUT;
    }

    public static long proc_num$offset() {
        return proc_num$OFFSET;
    }

    public static int proc_num(MemorySegment struct) {
        return struct.get(proc_num$LAYOUT, proc_num$OFFSET);
    }

    public static void proc_num(MemorySegment struct, int fieldValue) {
        struct.set(proc_num$LAYOUT, proc_num$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt utilization_switch$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("utilization_switch"));
    private static final long utilization_switch$OFFSET = $LAYOUT.byteOffset(groupElement("utilization_switch"));

    public static ValueLayout.OfInt utilization_switch$layout() {
        return utilization_switch$LAYOUT;
    }

    public static long utilization_switch$offset() {
        return utilization_switch$OFFSET;
    }

    public static int utilization_switch(MemorySegment struct) {
        return struct.get(utilization_switch$LAYOUT, utilization_switch$OFFSET);
    }

    public static void utilization_switch(MemorySegment struct, int fieldValue) {
        struct.set(utilization_switch$LAYOUT, utilization_switch$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt recent_kernel$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("recent_kernel"));
    private static final long recent_kernel$OFFSET = $LAYOUT.byteOffset(groupElement("recent_kernel"));

    public static ValueLayout.OfInt recent_kernel$layout() {
        return recent_kernel$LAYOUT;
    }

    public static long recent_kernel$offset() {
        return recent_kernel$OFFSET;
    }

    public static int recent_kernel(MemorySegment struct) {
        return struct.get(recent_kernel$LAYOUT, recent_kernel$OFFSET);
    }

    public static void recent_kernel(MemorySegment struct, int fieldValue) {
        struct.set(recent_kernel$LAYOUT, recent_kernel$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt priority$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("priority"));
    private static final long priority$OFFSET = $LAYOUT.byteOffset(groupElement("priority"));

    public static ValueLayout.OfInt priority$layout() {
        return priority$LAYOUT;
    }

    public static long priority$offset() {
        return priority$OFFSET;
    }

    public static int priority(MemorySegment struct) {
        return struct.get(priority$LAYOUT, priority$OFFSET);
    }

    public static void priority(MemorySegment struct, int fieldValue) {
        struct.set(priority$LAYOUT, priority$OFFSET, fieldValue);
    }

    public static MemorySegment allocate(SegmentAllocator allocator) {
        return allocator.allocate($LAYOUT);
    }

    public static MemorySegment allocateArray(long elementCount, SegmentAllocator allocator) {
        return allocator.allocate(MemoryLayout.sequenceLayout(elementCount, $LAYOUT));
    }

    public static MemorySegment asSlice(MemorySegment array, long index) {
        return array.asSlice($LAYOUT.byteSize() * index, $LAYOUT);
    }
}
