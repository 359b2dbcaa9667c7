package io.hami.nativebind.cndev.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code cndevSMluProfileInfo_t} in the shape jextract generates (one sMLU profile; index 0 of the arrays is the maximum, 144 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class cndevSMluProfileInfo_t {

    private cndevSMluProfileInfo_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cndev_h.C_INT.withName("version"),
            cndev_h.C_INT.withName("profileId"),
            MemoryLayout.sequenceLayout(100, cndev_h.C_CHAR).withName("name"),
            cndev_h.C_INT.withName("totalCapacity"),
            cndev_h.C_INT.withName("remainCapacity"),
            MemoryLayout.sequenceLayout(2, cndev_h.C_INT).withName("mluQuota"),
            MemoryLayout.paddingLayout(4),
            MemoryLayout.sequenceLayout(2, cndev_h.C_LONG).withName("memorySize")
    ).withName("cndevSMluProfileInfo_t");

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

    private static final ValueLayout.OfInt profileId$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("profileId"));
    private static final long profileId$OFFSET = $LAYOUT.byteOffset(groupElement("profileId"));

    public static ValueLayout.OfInt profileId$layout() {
        return profileId$LAYOUT;
    }

    public static long profileId$offset() {
        return profileId$OFFSET;
    }

    public static int profileId(MemorySegment struct) {
        return struct.get(profileId$LAYOUT, profileId$OFFSET);
    }

    public static void profileId(MemorySegment struct, int fieldValue) {
        struct.set(profileId$LAYOUT, profileId$OFFSET, fieldValue);
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

    private static final ValueLayout.OfInt totalCapacity$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("totalCapacity"));
    private static final long totalCapacity$OFFSET = $LAYOUT.byteOffset(groupElement("totalCapacity"));

    public static ValueLayout.OfInt totalCapacity$layout() {
        return totalCapacity$LAYOUT;
    }

    public static long totalCapacity$offset() {
        return totalCapacity$OFFSET;
    }

    public static int totalCapacity(MemorySegment struct) {
        return struct.get(totalCapacity$LAYOUT, totalCapacity$OFFSET);
    }

    public static void totalCapacity(MemorySegment struct, int fieldValue) {
        struct.set(totalCapacity$LAYOUT, totalCapacity$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt remainCapacity$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("remainCapacity"));
    private static final long remainCapacity$OFFSET = $LAYOUT.byteOffset(groupElement("remainCapacity"));

    public static ValueLayout.OfInt remainCapacity$layout() {
        return remainCapacity$LAYOUT;
    }

    public static long remainCapacity$offset() {
        return remainCapacity$OFFSET;
    }

    public static int remainCapacity(MemorySegment struct) {
        return struct.get(remainCapacity$LAYOUT, remainCapacity$OFFSET);
    }

    public static void remainCapacity(MemorySegment struct, int fieldValue) {
        struct.set(remainCapacity$LAYOUT, remainCapacity$OFFSET, fieldValue);
    }

    private static final SequenceLayout mluQuota$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("mluQuota"));
    private static final long mluQuota$OFFSET = $LAYOUT.byteOffset(groupElement("mluQuota"));

    public static SequenceLayout mluQuota$layout() {
        return mluQuota$LAYOUT;
    }

    public static long mluQuota$offset() {
        return mluQuota$OFFSET;
    }

    public static MemorySegment mluQuota(MemorySegment struct) {
        return struct.asSlice(mluQuota$OFFSET, mluQuota$LAYOUT.byteSize());
    }

    public static void mluQuota(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, mluQuota$OFFSET, mluQuota$LAYOUT.byteSize());
    }

    public static int mluQuota(MemorySegment struct, long index) {
        return struct.getAtIndex((ValueLayout.OfInt) mluQuota$LAYOUT.elementLayout(), mluQuota$OFFSET / 4 + index);
    }

    public static void mluQuota(MemorySegment struct, long index, int fieldValue) {
        struct.setAtIndex((ValueLayout.OfInt) mluQuota$LAYOUT.elementLayout(), mluQuota$OFFSET / 4 + index, fieldValue);
    }

    private static final SequenceLayout memorySize$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("memorySize"));
    private static final long memorySize$OFFSET = $LAYOUT.byteOffset(groupElement("memorySize"));

    public static SequenceLayout memorySize$layout() {
        return memorySize$LAYOUT;
    }

    public static long memorySize$offset() {
        return memorySize$OFFSET;
    }

    public static MemorySegment memorySize(MemorySegment struct) {
        return struct.asSlice(memorySize$OFFSET, memorySize$LAYOUT.byteSize());
    }

    public static void memorySize(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, memorySize$OFFSET, memorySize$LAYOUT.byteSize());
    }

    public static long memorySize(MemorySegment struct, long index) {
        return struct.getAtIndex((ValueLayout.OfLong) memorySize$LAYOUT.elementLayout(), memorySize$OFFSET / 8 + index);
    }

    public static void memorySize(MemorySegment struct, long index, long fieldValue) {
        struct.setAtIndex((ValueLayout.OfLong) memorySize$LAYOUT.elementLayout(), memorySize$OFFSET / 8 + index, fieldValue);
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
