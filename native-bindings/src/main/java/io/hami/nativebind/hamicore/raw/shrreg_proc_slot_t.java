package io.hami.nativebind.hamicore.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code shrreg_proc_slot_t} of {@code hami_shared_region.h} in the shape jextract generates: one process slot (version 1).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class shrreg_proc_slot_t {

    private shrreg_proc_slot_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            hami_shared_region_h.C_INT.withName("pid"),
            hami_shared_region_h.C_INT.withName("hostpid"),
            MemoryLayout.sequenceLayout(16, device_memory_t.layout()).withName("used"),
            MemoryLayout.sequenceLayout(16, hami_shared_region_h.C_LONG).withName("monitorused"),
            MemoryLayout.sequenceLayout(16, device_util_t.layout()).withName("device_util"),
            hami_shared_region_h.C_INT.withName("status"),
            MemoryLayout.paddingLayout(4),
            hami_shared_region_h.C_LONG.withName("seqlock"),
            MemoryLayout.sequenceLayout(2, hami_shared_region_h.C_LONG).withName("unused")
    ).withName("shrreg_proc_slot_t");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final ValueLayout.OfInt pid$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("pid"));
    private static final long pid$OFFSET = $LAYOUT.byteOffset(groupElement("pid"));

    public static ValueLayout.OfInt pid$layout() {
        return pid$LAYOUT;
    }

    public static long pid$offset() {
        return pid$OFFSET;
    }

    public static int pid(MemorySegment struct) {
        return struct.get(pid$LAYOUT, pid$OFFSET);
    }

    public static void pid(MemorySegment struct, int fieldValue) {
        struct.set(pid$LAYOUT, pid$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt hostpid$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("hostpid"));
    private static final long hostpid$OFFSET = $LAYOUT.byteOffset(groupElement("hostpid"));

    public static ValueLayout.OfInt hostpid$layout() {
        return hostpid$LAYOUT;
    }

    public static long hostpid$offset() {
        return hostpid$OFFSET;
    }

    public static int hostpid(MemorySegment struct) {
        return struct.get(hostpid$LAYOUT, hostpid$OFFSET);
    }

    public static void hostpid(MemorySegment struct, int fieldValue) {
        struct.set(hostpid$LAYOUT, hostpid$OFFSET, fieldValue);
    }

    private static final SequenceLayout used$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("used"));
    private static final long used$OFFSET = $LAYOUT.byteOffset(groupElement("used"));

    public static SequenceLayout used$layout() {
        return used$LAYOUT;
    }

    public static long used$offset() {
        return used$OFFSET;
    }

    public static MemorySegment used(MemorySegment struct) {
        return struct.asSlice(used$OFFSET, used$LAYOUT.byteSize());
    }

    public static MemorySegment used(MemorySegment struct, long index0) {
        return device_memory_t.asSlice(used(struct), index0);
    }

    private static final SequenceLayout monitorused$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("monitorused"));
    private static final long monitorused$OFFSET = $LAYOUT.byteOffset(groupElement("monitorused"));

    public static SequenceLayout monitorused$layout() {
        return monitorused$LAYOUT;
    }

    public static long monitorused$offset() {
        return monitorused$OFFSET;
    }

    public static MemorySegment monitorused(MemorySegment struct) {
        return struct.asSlice(monitorused$OFFSET, monitorused$LAYOUT.byteSize());
    }

    public static long monitorused(MemorySegment struct, long index0) {
        return struct.get(hami_shared_region_h.C_LONG, monitorused$OFFSET + index0 * hami_shared_region_h.C_LONG.byteSize());
    }

    public static void monitorused(MemorySegment struct, long index0, long fieldValue) {
        struct.set(hami_shared_region_h.C_LONG, monitorused$OFFSET + index0 * hami_shared_region_h.C_LONG.byteSize(), fieldValue);
    }

    private static final SequenceLayout device_util$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("device_util"));
    private static final long device_util$OFFSET = $LAYOUT.byteOffset(groupElement("device_util"));

    public static SequenceLayout device_util$layout() {
        return device_util$LAYOUT;
    }

    public static long device_util$offset() {
        return device_util$OFFSET;
    }

    public static MemorySegment device_util(MemorySegment struct) {
        return struct.asSlice(device_util$OFFSET, device_util$LAYOUT.byteSize());
    }

    public static MemorySegment device_util(MemorySegment struct, long index0) {
        return device_util_t.asSlice(device_util(struct), index0);
    }

    private static final ValueLayout.OfInt status$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("status"));
    private static final long status$OFFSET = $LAYOUT.byteOffset(groupElement("status"));

    public static ValueLayout.OfInt status$layout() {
        return status$LAYOUT;
    }

    public static long status$offset() {
        return status$OFFSET;
    }

    public static int status(MemorySegment struct) {
        return struct.get(status$LAYOUT, status$OFFSET);
    }

    public static void status(MemorySegment struct, int fieldValue) {
        struct.set(status$LAYOUT, status$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong seqlock$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("seqlock"));
    private static final long seqlock$OFFSET = $LAYOUT.byteOffset(groupElement("seqlock"));

    public static ValueLayout.OfLong seqlock$layout() {
        return seqlock$LAYOUT;
    }

    public static long seqlock$offset() {
        return seqlock$OFFSET;
    }

    public static long seqlock(MemorySegment struct) {
        return struct.get(seqlock$LAYOUT, seqlock$OFFSET);
    }

    public static void seqlock(MemorySegment struct, long fieldValue) {
        struct.set(seqlock$LAYOUT, seqlock$OFFSET, fieldValue);
    }

    private static final SequenceLayout unused$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("unused"));
    private static final long unused$OFFSET = $LAYOUT.byteOffset(groupElement("unused"));

    public static SequenceLayout unused$layout() {
        return unused$LAYOUT;
    }

    public static long unused$offset() {
        return unused$OFFSET;
    }

    public static MemorySegment unused(MemorySegment struct) {
        return struct.asSlice(unused$OFFSET, unused$LAYOUT.byteSize());
    }

    public static long unused(MemorySegment struct, long index0) {
        return struct.get(hami_shared_region_h.C_LONG, unused$OFFSET + index0 * hami_shared_region_h.C_LONG.byteSize());
    }

    public static void unused(MemorySegment struct, long index0, long fieldValue) {
        struct.set(hami_shared_region_h.C_LONG, unused$OFFSET + index0 * hami_shared_region_h.C_LONG.byteSize(), fieldValue);
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
