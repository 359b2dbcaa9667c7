package io.hami.nativebind.cndev.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code cndevCardInfo_t} in the shape jextract generates (card count, 8 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class cndevCardInfo_t {

    private cndevCardInfo_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cndev_h.C_INT.withName("version"),
            cndev_h.C_INT.withName("number")
    ).withName("cndevCardInfo_t");

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

    private static final ValueLayout.OfInt number$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("number"));
    private static final long number$OFFSET = $LAYOUT.byteOffset(groupElement("number"));

    public static ValueLayout.OfInt number$layout() {
        return number$LAYOUT;
    }

    public static long number$offset() {
        return number$OFFSET;
    }

    public static int number(MemorySegment struct) {
        return struct.get(number$LAYOUT, number$OFFSET);
    }

    public static void number(MemorySegment struct, int fieldValue) {
        struct.set(number$LAYOUT, number$OFFSET, fieldValue);
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
