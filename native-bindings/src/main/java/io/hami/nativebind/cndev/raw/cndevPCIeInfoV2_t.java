package io.hami.nativebind.cndev.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code cndevPCIeInfoV2_t} in the shape jextract generates (no version field, 64 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class cndevPCIeInfoV2_t {

    private cndevPCIeInfoV2_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cndev_h.C_INT.withName("subsystemId"),
            cndev_h.C_INT.withName("deviceId"),
            cndev_h.C_SHORT.withName("vendor"),
            cndev_h.C_SHORT.withName("subsystemVendor"),
            cndev_h.C_INT.withName("domain"),
            cndev_h.C_INT.withName("bus"),
            cndev_h.C_INT.withName("device"),
            cndev_h.C_INT.withName("function"),
            cndev_h.C_SHORT.withName("moduleId"),
            cndev_h.C_SHORT.withName("slotId"),
            MemoryLayout.sequenceLayout(8, cndev_h.C_INT).withName("reserved")
    ).withName("cndevPCIeInfoV2_t");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final ValueLayout.OfInt subsystemId$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("subsystemId"));
    private static final long subsystemId$OFFSET = $LAYOUT.byteOffset(groupElement("subsystemId"));

    public static ValueLayout.OfInt subsystemId$layout() {
        return subsystemId$LAYOUT;
    }

    public static long subsystemId$offset() {
        return subsystemId$OFFSET;
    }

    public static int subsystemId(MemorySegment struct) {
        return struct.get(subsystemId$LAYOUT, subsystemId$OFFSET);
    }

    public static void subsystemId(MemorySegment struct, int fieldValue) {
        struct.set(subsystemId$LAYOUT, subsystemId$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt deviceId$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("deviceId"));
    private static final long deviceId$OFFSET = $LAYOUT.byteOffset(groupElement("deviceId"));

    public static ValueLayout.OfInt deviceId$layout() {
        return deviceId$LAYOUT;
    }

    public static long deviceId$offset() {
        return deviceId$OFFSET;
    }

    public static int deviceId(MemorySegment struct) {
        return struct.get(deviceId$LAYOUT, deviceId$OFFSET);
    }

    public static void deviceId(MemorySegment struct, int fieldValue) {
        struct.set(deviceId$LAYOUT, deviceId$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfShort vendor$LAYOUT = (ValueLayout.OfShort) $LAYOUT.select(groupElement("vendor"));
    private static final long vendor$OFFSET = $LAYOUT.byteOffset(groupElement("vendor"));

    public static ValueLayout.OfShort vendor$layout() {
        return vendor$LAYOUT;
    }

    public static long vendor$offset() {
        return vendor$OFFSET;
    }

    public static short vendor(MemorySegment struct) {
        return struct.get(vendor$LAYOUT, vendor$OFFSET);
    }

    public static void vendor(MemorySegment struct, short fieldValue) {
        struct.set(vendor$LAYOUT, vendor$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfShort subsystemVendor$LAYOUT = (ValueLayout.OfShort) $LAYOUT.select(groupElement("subsystemVendor"));
    private static final long subsystemVendor$OFFSET = $LAYOUT.byteOffset(groupElement("subsystemVendor"));

    public static ValueLayout.OfShort subsystemVendor$layout() {
        return subsystemVendor$LAYOUT;
    }

    public static long subsystemVendor$offset() {
        return subsystemVendor$OFFSET;
    }

    public static short subsystemVendor(MemorySegment struct) {
        return struct.get(subsystemVendor$LAYOUT, subsystemVendor$OFFSET);
    }

    public static void subsystemVendor(MemorySegment struct, short fieldValue) {
        struct.set(subsystemVendor$LAYOUT, subsystemVendor$OFFSET, fieldValue);
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

    private static final ValueLayout.OfShort moduleId$LAYOUT = (ValueLayout.OfShort) $LAYOUT.select(groupElement("moduleId"));
    private static final long moduleId$OFFSET = $LAYOUT.byteOffset(groupElement("moduleId"));

    public static ValueLayout.OfShort moduleId$layout() {
        return moduleId$LAYOUT;
    }

    public static long moduleId$offset() {
        return moduleId$OFFSET;
    }

    public static short moduleId(MemorySegment struct) {
        return struct.get(moduleId$LAYOUT, moduleId$OFFSET);
    }

    public static void moduleId(MemorySegment struct, short fieldValue) {
        struct.set(moduleId$LAYOUT, moduleId$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfShort slotId$LAYOUT = (ValueLayout.OfShort) $LAYOUT.select(groupElement("slotId"));
    private static final long slotId$OFFSET = $LAYOUT.byteOffset(groupElement("slotId"));

    public static ValueLayout.OfShort slotId$layout() {
        return slotId$LAYOUT;
    }

    public static long slotId$offset() {
        return slotId$OFFSET;
    }

    public static short slotId(MemorySegment struct) {
        return struct.get(slotId$LAYOUT, slotId$OFFSET);
    }

    public static void slotId(MemorySegment struct, short fieldValue) {
        struct.set(slotId$LAYOUT, slotId$OFFSET, fieldValue);
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
