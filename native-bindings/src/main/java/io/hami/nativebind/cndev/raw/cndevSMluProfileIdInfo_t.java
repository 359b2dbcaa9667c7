package io.hami.nativebind.cndev.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code cndevSMluProfileIdInfo_t} in the shape jextract generates (sMLU profile ids of a card, 520 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class cndevSMluProfileIdInfo_t {

    private cndevSMluProfileIdInfo_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cndev_h.C_INT.withName("version"),
            cndev_h.C_INT.withName("count"),
            MemoryLayout.sequenceLayout(128, cndev_h.C_INT).withName("profileId")
    ).withName("cndevSMluProfileIdInfo_t");

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

    private static final ValueLayout.OfInt count$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("count"));
    private static final long count$OFFSET = $LAYOUT.byteOffset(groupElement("count"));

    public static ValueLayout.OfInt count$layout() {
        return count$LAYOUT;
    }

    public static long count$offset() {
        return count$OFFSET;
    }

    public static int count(MemorySegment struct) {
        return struct.get(count$LAYOUT, count$OFFSET);
    }

    public static void count(MemorySegment struct, int fieldValue) {
        struct.set(count$LAYOUT, count$OFFSET, fieldValue);
    }

    private static final SequenceLayout profileId$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("profileId"));
    private static final long profileId$OFFSET = $LAYOUT.byteOffset(groupElement("profileId"));

    public static SequenceLayout profileId$layout() {
        return profileId$LAYOUT;
    }

    public static long profileId$offset() {
        return profileId$OFFSET;
    }

    public static MemorySegment profileId(MemorySegment struct) {
        return struct.asSlice(profileId$OFFSET, profileId$LAYOUT.byteSize());
    }

    public static void profileId(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, profileId$OFFSET, profileId$LAYOUT.byteSize());
    }

    public static int profileId(MemorySegment struct, long index) {
        return struct.getAtIndex((ValueLayout.OfInt) profileId$LAYOUT.elementLayout(), profileId$OFFSET / 4 + index);
    }

    public static void profileId(MemorySegment struct, long index, int fieldValue) {
        struct.setAtIndex((ValueLayout.OfInt) profileId$LAYOUT.elementLayout(), profileId$OFFSET / 4 + index, fieldValue);
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
