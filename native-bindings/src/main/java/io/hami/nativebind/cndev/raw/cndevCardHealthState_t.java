package io.hami.nativebind.cndev.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code cndevCardHealthState_t} in the shape jextract generates (health 1 healthy, 0 sick, 16 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class cndevCardHealthState_t {

    private cndevCardHealthState_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cndev_h.C_INT.withName("version"),
            cndev_h.C_INT.withName("health"),
            cndev_h.C_INT.withName("deviceState"),
            cndev_h.C_INT.withName("driverState")
    ).withName("cndevCardHealthState_t");

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

    private static final ValueLayout.OfInt health$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("health"));
    private static final long health$OFFSET = $LAYOUT.byteOffset(groupElement("health"));

    public static ValueLayout.OfInt health$layout() {
        return health$LAYOUT;
    }

    public static long health$offset() {
        return health$OFFSET;
    }

    public static int health(MemorySegment struct) {
        return struct.get(health$LAYOUT, health$OFFSET);
    }

    public static void health(MemorySegment struct, int fieldValue) {
        struct.set(health$LAYOUT, health$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt deviceState$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("deviceState"));
    private static final long deviceState$OFFSET = $LAYOUT.byteOffset(groupElement("deviceState"));

    public static ValueLayout.OfInt deviceState$layout() {
        return deviceState$LAYOUT;
    }

    public static long deviceState$offset() {
        return deviceState$OFFSET;
    }

    public static int deviceState(MemorySegment struct) {
        return struct.get(deviceState$LAYOUT, deviceState$OFFSET);
    }

    public static void deviceState(MemorySegment struct, int fieldValue) {
        struct.set(deviceState$LAYOUT, deviceState$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt driverState$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("driverState"));
    private static final long driverState$OFFSET = $LAYOUT.byteOffset(groupElement("driverState"));

    public static ValueLayout.OfInt driverState$layout() {
        return driverState$LAYOUT;
    }

    public static long driverState$offset() {
        return driverState$OFFSET;
    }

    public static int driverState(MemorySegment struct) {
        return struct.get(driverState$LAYOUT, driverState$OFFSET);
    }

    public static void driverState(MemorySegment struct, int fieldValue) {
        struct.set(driverState$LAYOUT, driverState$OFFSET, fieldValue);
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
