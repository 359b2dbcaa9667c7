package io.hami.nativebind.cndev.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code cndevUUID_t} in the shape jextract generates (uuid is not NUL-terminated, 56 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class cndevUUID_t {

    private cndevUUID_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cndev_h.C_INT.withName("version"),
            MemoryLayout.sequenceLayout(37, cndev_h.C_CHAR).withName("uuid"),
            MemoryLayout.paddingLayout(7),
            cndev_h.C_LONG.withName("ncsUUID64")
    ).withName("cndevUUID_t");

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

    private static final SequenceLayout uuid$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("uuid"));
    private static final long uuid$OFFSET = $LAYOUT.byteOffset(groupElement("uuid"));

    public static SequenceLayout uuid$layout() {
        return uuid$LAYOUT;
    }

    public static long uuid$offset() {
        return uuid$OFFSET;
    }

    public static MemorySegment uuid(MemorySegment struct) {
        return struct.asSlice(uuid$OFFSET, uuid$LAYOUT.byteSize());
    }

    public static void uuid(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, uuid$OFFSET, uuid$LAYOUT.byteSize());
    }

    private static final ValueLayout.OfLong ncsUUID64$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("ncsUUID64"));
    private static final long ncsUUID64$OFFSET = $LAYOUT.byteOffset(groupElement("ncsUUID64"));

    public static ValueLayout.OfLong ncsUUID64$layout() {
        return ncsUUID64$LAYOUT;
    }

    public static long ncsUUID64$offset() {
        return ncsUUID64$OFFSET;
    }

    public static long ncsUUID64(MemorySegment struct) {
        return struct.get(ncsUUID64$LAYOUT, ncsUUID64$OFFSET);
    }

    public static void ncsUUID64(MemorySegment struct, long fieldValue) {
        struct.set(ncsUUID64$LAYOUT, ncsUUID64$OFFSET, fieldValue);
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
