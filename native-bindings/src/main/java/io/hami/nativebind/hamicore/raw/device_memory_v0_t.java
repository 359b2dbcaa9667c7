package io.hami.nativebind.hamicore.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code device_memory_v0_t} of {@code hami_shared_region.h} in the shape jextract generates: bytes in use on one device by one process (version 0).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class device_memory_v0_t {

    private device_memory_v0_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            hami_shared_region_h.C_LONG.withName("context_size"),
            hami_shared_region_h.C_LONG.withName("module_size"),
            hami_shared_region_h.C_LONG.withName("data_size"),
            hami_shared_region_h.C_LONG.withName("offset"),
            hami_shared_region_h.C_LONG.withName("total")
    ).withName("device_memory_v0_t");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final ValueLayout.OfLong context_size$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("context_size"));
    private static final long context_size$OFFSET = $LAYOUT.byteOffset(groupElement("context_size"));

    public static ValueLayout.OfLong context_size$layout() {
        return context_size$LAYOUT;
    }

    public static long context_size$offset() {
        return context_size$OFFSET;
    }

    public static long context_size(MemorySegment struct) {
        return struct.get(context_size$LAYOUT, context_size$OFFSET);
    }

    public static void context_size(MemorySegment struct, long fieldValue) {
        struct.set(context_size$LAYOUT, context_size$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong module_size$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("module_size"));
    private static final long module_size$OFFSET = $LAYOUT.byteOffset(groupElement("module_size"));

    public static ValueLayout.OfLong module_size$layout() {
        return module_size$LAYOUT;
    }

    public static long module_size$offset() {
        return module_size$OFFSET;
    }

    public static long module_size(MemorySegment struct) {
        return struct.get(module_size$LAYOUT, module_size$OFFSET);
    }

    public static void module_size(MemorySegment struct, long fieldValue) {
        struct.set(module_size$LAYOUT, module_size$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong data_size$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("data_size"));
    private static final long data_size$OFFSET = $LAYOUT.byteOffset(groupElement("data_size"));

    public static ValueLayout.OfLong data_size$layout() {
        return data_size$LAYOUT;
    }

    public static long data_size$offset() {
        return data_size$OFFSET;
    }

    public static long data_size(MemorySegment struct) {
        return struct.get(data_size$LAYOUT, data_size$OFFSET);
    }

    public static void data_size(MemorySegment struct, long fieldValue) {
        struct.set(data_size$LAYOUT, data_size$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong offset$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("offset"));
    private static final long offset$OFFSET = $LAYOUT.byteOffset(groupElement("offset"));

    public static ValueLayout.OfLong offset$layout() {
        return offset$LAYOUT;
    }

    public static long offset$offset() {
        return offset$OFFSET;
    }

    public static long offset(MemorySegment struct) {
        return struct.get(offset$LAYOUT, offset$OFFSET);
    }

    public static void offset(MemorySegment struct, long fieldValue) {
        struct.set(offset$LAYOUT, offset$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong total$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("total"));
    private static final long total$OFFSET = $LAYOUT.byteOffset(groupElement("total"));

    public static ValueLayout.OfLong total$layout() {
        return total$LAYOUT;
    }

    public static long total$offset() {
        return total$OFFSET;
    }

    public static long total(MemorySegment struct) {
        return struct.get(total$LAYOUT, total$OFFSET);
    }

    public static void total(MemorySegment struct, long fieldValue) {
        struct.set(total$LAYOUT, total$OFFSET, fieldValue);
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
