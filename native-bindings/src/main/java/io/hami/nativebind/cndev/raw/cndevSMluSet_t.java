package io.hami.nativebind.cndev.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code cndevSMluSet_t} in the shape jextract generates (sMLU profile to create; memorySize in bytes, 16 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class cndevSMluSet_t {

    private cndevSMluSet_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cndev_h.C_INT.withName("version"),
            cndev_h.C_INT.withName("mluQuota"),
            cndev_h.C_LONG.withName("memorySize")
    ).withName("cndevSMluSet_t");

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

    private static final ValueLayout.OfInt mluQuota$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("mluQuota"));
    private static final long mluQuota$OFFSET = $LAYOUT.byteOffset(groupElement("mluQuota"));

    public static ValueLayout.OfInt mluQuota$layout() {
        return mluQuota$LAYOUT;
    }

    public static long mluQuota$offset() {
        return mluQuota$OFFSET;
    }

    public static int mluQuota(MemorySegment struct) {
        return struct.get(mluQuota$LAYOUT, mluQuota$OFFSET);
    }

    public static void mluQuota(MemorySegment struct, int fieldValue) {
        struct.set(mluQuota$LAYOUT, mluQuota$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong memorySize$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("memorySize"));
    private static final long memorySize$OFFSET = $LAYOUT.byteOffset(groupElement("memorySize"));

    public static ValueLayout.OfLong memorySize$layout() {
        return memorySize$LAYOUT;
    }

    public static long memorySize$offset() {
        return memorySize$OFFSET;
    }

    public static long memorySize(MemorySegment struct) {
        return struct.get(memorySize$LAYOUT, memorySize$OFFSET);
    }

    public static void memorySize(MemorySegment struct, long fieldValue) {
        struct.set(memorySize$LAYOUT, memorySize$OFFSET, fieldValue);
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
