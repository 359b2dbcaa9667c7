package io.hami.nativebind.cndev.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code cndevSMluInfo_t} in the shape jextract generates (one sMLU instance, 904 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class cndevSMluInfo_t {

    private cndevSMluInfo_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cndev_h.C_INT.withName("version"),
            cndev_h.C_INT.withName("profileId"),
            cndev_h.C_INT.withName("instanceId"),
            MemoryLayout.sequenceLayout(37, cndev_h.C_CHAR).withName("uuid"),
            MemoryLayout.paddingLayout(3),
            cndev_h.C_INT.withName("domain"),
            cndev_h.C_INT.withName("bus"),
            cndev_h.C_INT.withName("device"),
            cndev_h.C_INT.withName("function"),
            MemoryLayout.sequenceLayout(100, cndev_h.C_CHAR).withName("profileName"),
            MemoryLayout.sequenceLayout(100, cndev_h.C_CHAR).withName("instanceName"),
            MemoryLayout.sequenceLayout(100, cndev_h.C_CHAR).withName("devNodeName"),
            MemoryLayout.sequenceLayout(2, cndev_h.C_INT).withName("mluQuota"),
            MemoryLayout.sequenceLayout(2, cndev_h.C_LONG).withName("memorySize"),
            MemoryLayout.sequenceLayout(128, cndev_h.C_INT).withName("reserved")
    ).withName("cndevSMluInfo_t");

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

    private static final ValueLayout.OfInt instanceId$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("instanceId"));
    private static final long instanceId$OFFSET = $LAYOUT.byteOffset(groupElement("instanceId"));

    public static ValueLayout.OfInt instanceId$layout() {
        return instanceId$LAYOUT;
    }

    public static long instanceId$offset() {
        return instanceId$OFFSET;
    }

    public static int instanceId(MemorySegment struct) {
        return struct.get(instanceId$LAYOUT, instanceId$OFFSET);
    }

    public static void instanceId(MemorySegment struct, int fieldValue) {
        struct.set(instanceId$LAYOUT, instanceId$OFFSET, fieldValue);
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

    private static final ValueLayout.OfInt domain$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("domain"));
    private static final long domain$OFFSET = $LAYOUT.byteOffset(groupElement("domain"));

    public static ValueLayout.OfInt domain$layout() {
        return domain$LAYOUT;
    }

    public static long domain$offset() {
        return domain$OFFSET;
    }

    public static int domain(MemorySegment struct) {
        return struct.get(domain$LAYOUT, domain$OFFSET);
    }

    public static void domain(MemorySegment struct, int fieldValue) {
        struct.set(domain$LAYOUT, domain$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt bus$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("bus"));
    private static final long bus$OFFSET = $LAYOUT.byteOffset(groupElement("bus"));

    public static ValueLayout.OfInt bus$layout() {
        return bus$LAYOUT;
    }

    public static long bus$offset() {
        return bus$OFFSET;
    }

    public static int bus(MemorySegment struct) {
        return struct.get(bus$LAYOUT, bus$OFFSET);
    }

    public static void bus(MemorySegment struct, int fieldValue) {
        struct.set(bus$LAYOUT, bus$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt device$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("device"));
    private static final long device$OFFSET = $LAYOUT.byteOffset(groupElement("device"));

    public static ValueLayout.OfInt device$layout() {
        return device$LAYOUT;
    }

    public static long device$offset() {
        return device$OFFSET;
    }

    public static int device(MemorySegment struct) {
        return struct.get(device$LAYOUT, device$OFFSET);
    }

    public static void device(MemorySegment struct, int fieldValue) {
        struct.set(device$LAYOUT, device$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt function$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("function"));
    private static final long function$OFFSET = $LAYOUT.byteOffset(groupElement("function"));

    public static ValueLayout.OfInt function$layout() {
        return function$LAYOUT;
    }

    public static long function$offset() {
        return function$OFFSET;
    }

    public static int function(MemorySegment struct) {
        return struct.get(function$LAYOUT, function$OFFSET);
    }

    public static void function(MemorySegment struct, int fieldValue) {
        struct.set(function$LAYOUT, function$OFFSET, fieldValue);
    }

    private static final SequenceLayout profileName$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("profileName"));
    private static final long profileName$OFFSET = $LAYOUT.byteOffset(groupElement("profileName"));

    public static SequenceLayout profileName$layout() {
        return profileName$LAYOUT;
    }

    public static long profileName$offset() {
        return profileName$OFFSET;
    }

    public static MemorySegment profileName(MemorySegment struct) {
        return struct.asSlice(profileName$OFFSET, profileName$LAYOUT.byteSize());
    }

    public static void profileName(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, profileName$OFFSET, profileName$LAYOUT.byteSize());
    }

    private static final SequenceLayout instanceName$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("instanceName"));
    private static final long instanceName$OFFSET = $LAYOUT.byteOffset(groupElement("instanceName"));

    public static SequenceLayout instanceName$layout() {
        return instanceName$LAYOUT;
    }

    public static long instanceName$offset() {
        return instanceName$OFFSET;
    }

    public static MemorySegment instanceName(MemorySegment struct) {
        return struct.asSlice(instanceName$OFFSET, instanceName$LAYOUT.byteSize());
    }

    public static void instanceName(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, instanceName$OFFSET, instanceName$LAYOUT.byteSize());
    }

    private static final SequenceLayout devNodeName$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("devNodeName"));
    private static final long devNodeName$OFFSET = $LAYOUT.byteOffset(groupElement("devNodeName"));

    public static SequenceLayout devNodeName$layout() {
        return devNodeName$LAYOUT;
    }

    public static long devNodeName$offset() {
        return devNodeName$OFFSET;
    }

    public static MemorySegment devNodeName(MemorySegment struct) {
        return struct.asSlice(devNodeName$OFFSET, devNodeName$LAYOUT.byteSize());
    }

    public static void devNodeName(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, devNodeName$OFFSET, devNodeName$LAYOUT.byteSize());
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

    private static final SequenceLayout reserved$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("reserved"));
    private static final long reserved$OFFSET = $LAYOUT.byteOffset(groupElement("reserved"));

    public static SequenceLayout reserved$layout() {
        return reserved$LAYOUT;
    }

    public static long reserved$offset() {
        return reserved$OFFSET;
    }

    public static MemorySegment reserved(MemorySegment struct) {
        return struct.asSlice(reserved$OFFSET, reserved$LAYOUT.byteSize());
    }

    public static void reserved(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, reserved$OFFSET, reserved$LAYOUT.byteSize());
    }

    public static int reserved(MemorySegment struct, long index) {
        return struct.getAtIndex((ValueLayout.OfInt) reserved$LAYOUT.elementLayout(), reserved$OFFSET / 4 + index);
    }

    public static void reserved(MemorySegment struct, long index, int fieldValue) {
        struct.setAtIndex((ValueLayout.OfInt) reserved$LAYOUT.elementLayout(), reserved$OFFSET / 4 + index, fieldValue);
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
