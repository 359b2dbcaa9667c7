package io.hami.nativebind.hydmi.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code dmiDeviceInfo} in the shape jextract generates (memory sizes in bytes, 296 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class dmiDeviceInfo {

    private dmiDeviceInfo() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(256, hydmi_h.C_CHAR).withName("name"),
            hydmi_h.C_INT.withName("compute_unit_count"),
            MemoryLayout.paddingLayout(4),
            hydmi_h.C_LONG.withName("global_mem_size"),
            hydmi_h.C_LONG.withName("usage_mem_size"),
            hydmi_h.C_LONG.withName("container_id"),
            hydmi_h.C_INT.withName("device_id"),
            MemoryLayout.paddingLayout(4)
    ).withName("dmiDeviceInfo");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final SequenceLayout name$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("name"));
    private static final long name$OFFSET = $LAYOUT.byteOffset(groupElement("name"));

    public static SequenceLayout name$layout() {
        return name$LAYOUT;
    }

    public static long name$offset() {
        return name$OFFSET;
    }

    public static MemorySegment name(MemorySegment struct) {
        return struct.asSlice(name$OFFSET, name$LAYOUT.byteSize());
    }

    public static void name(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, name$OFFSET, name$LAYOUT.byteSize());
    }

    private static final ValueLayout.OfInt compute_unit_count$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("compute_unit_count"));
    private static final long compute_unit_count$OFFSET = $LAYOUT.byteOffset(groupElement("compute_unit_count"));

    public static ValueLayout.OfInt compute_unit_count$layout() {
        return compute_unit_count$LAYOUT;
    }

    public static long compute_unit_count$offset() {
        return compute_unit_count$OFFSET;
    }

    public static int compute_unit_count(MemorySegment struct) {
        return struct.get(compute_unit_count$LAYOUT, compute_unit_count$OFFSET);
    }

    public static void compute_unit_count(MemorySegment struct, int fieldValue) {
        struct.set(compute_unit_count$LAYOUT, compute_unit_count$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong global_mem_size$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("global_mem_size"));
    private static final long global_mem_size$OFFSET = $LAYOUT.byteOffset(groupElement("global_mem_size"));

    public static ValueLayout.OfLong global_mem_size$layout() {
        return global_mem_size$LAYOUT;
    }

    public static long global_mem_size$offset() {
        return global_mem_size$OFFSET;
    }

    public static long global_mem_size(MemorySegment struct) {
        return struct.get(global_mem_size$LAYOUT, global_mem_size$OFFSET);
    }

    public static void global_mem_size(MemorySegment struct, long fieldValue) {
        struct.set(global_mem_size$LAYOUT, global_mem_size$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong usage_mem_size$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("usage_mem_size"));
    private static final long usage_mem_size$OFFSET = $LAYOUT.byteOffset(groupElement("usage_mem_size"));

    public static ValueLayout.OfLong usage_mem_size$layout() {
        return usage_mem_size$LAYOUT;
    }

    public static long usage_mem_size$offset() {
        return usage_mem_size$OFFSET;
    }

    public static long usage_mem_size(MemorySegment struct) {
        return struct.get(usage_mem_size$LAYOUT, usage_mem_size$OFFSET);
    }

    public static void usage_mem_size(MemorySegment struct, long fieldValue) {
        struct.set(usage_mem_size$LAYOUT, usage_mem_size$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong container_id$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("container_id"));
    private static final long container_id$OFFSET = $LAYOUT.byteOffset(groupElement("container_id"));

    public static ValueLayout.OfLong container_id$layout() {
        return container_id$LAYOUT;
    }

    public static long container_id$offset() {
        return container_id$OFFSET;
    }

    public static long container_id(MemorySegment struct) {
        return struct.get(container_id$LAYOUT, container_id$OFFSET);
    }

    public static void container_id(MemorySegment struct, long fieldValue) {
        struct.set(container_id$LAYOUT, container_id$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt device_id$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("device_id"));
    private static final long device_id$OFFSET = $LAYOUT.byteOffset(groupElement("device_id"));

    public static ValueLayout.OfInt device_id$layout() {
        return device_id$LAYOUT;
    }

    public static long device_id$offset() {
        return device_id$OFFSET;
    }

    public static int device_id(MemorySegment struct) {
        return struct.get(device_id$LAYOUT, device_id$OFFSET);
    }

    public static void device_id(MemorySegment struct, int fieldValue) {
        struct.set(device_id$LAYOUT, device_id$OFFSET, fieldValue);
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
