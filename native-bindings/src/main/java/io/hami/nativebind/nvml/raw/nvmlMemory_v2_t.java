package io.hami.nativebind.nvml.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code nvmlMemory_v2_t} in the shape jextract generates (bytes; the caller sets version to nvmlMemory_v2, 40 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class nvmlMemory_v2_t {

    private nvmlMemory_v2_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            nvml_h.C_INT.withName("version"),
            MemoryLayout.paddingLayout(4),
            nvml_h.C_LONG_LONG.withName("total"),
            nvml_h.C_LONG_LONG.withName("reserved"),
            nvml_h.C_LONG_LONG.withName("free"),
            nvml_h.C_LONG_LONG.withName("used")
    ).withName("nvmlMemory_v2_st");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final ValueLayout.OfInt version$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("version"));
    private static final long version$OFFSET = $LAYOUT.byteOffset(groupElement("version"));

    public static ValueLayout.OfInt version$layout() {
        return version$LAYOUT;
    }

    public static long version$offset() {
        return version$OFFSET;
    }

    public static int version(MemorySegment struct) {
        return struct.get(version$LAYOUT, version$OFFSET);
    }

    public static void version(MemorySegment struct, int fieldValue) {
        struct.set(version$LAYOUT, version$OFFSET, fieldValue);
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

    private static final ValueLayout.OfLong reserved$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("reserved"));
    private static final long reserved$OFFSET = $LAYOUT.byteOffset(groupElement("reserved"));

    public static ValueLayout.OfLong reserved$layout() {
        return reserved$LAYOUT;
    }

    public static long reserved$offset() {
        return reserved$OFFSET;
    }

    public static long reserved(MemorySegment struct) {
        return struct.get(reserved$LAYOUT, reserved$OFFSET);
    }

    public static void reserved(MemorySegment struct, long fieldValue) {
        struct.set(reserved$LAYOUT, reserved$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong free$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("free"));
    private static final long free$OFFSET = $LAYOUT.byteOffset(groupElement("free"));

    public static ValueLayout.OfLong free$layout() {
        return free$LAYOUT;
    }

    public static long free$offset() {
        return free$OFFSET;
    }

    public static long free(MemorySegment struct) {
        return struct.get(free$LAYOUT, free$OFFSET);
    }

    public static void free(MemorySegment struct, long fieldValue) {
        struct.set(free$LAYOUT, free$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong used$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("used"));
    private static final long used$OFFSET = $LAYOUT.byteOffset(groupElement("used"));

    public static ValueLayout.OfLong used$layout() {
        return used$LAYOUT;
    }

    public static long used$offset() {
        return used$OFFSET;
    }

    public static long used(MemorySegment struct) {
        return struct.get(used$LAYOUT, used$OFFSET);
    }

    public static void used(MemorySegment struct, long fieldValue) {
        struct.set(used$LAYOUT, used$OFFSET, fieldValue);
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
