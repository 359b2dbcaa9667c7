package io.hami.nativebind.nvml.raw;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code nvmlEventData_t} in the shape jextract generates (eventData is the XID of an XID event, 32 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class nvmlEventData_t {

    private nvmlEventData_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            nvml_h.C_POINTER.withName("device"),
            nvml_h.C_LONG_LONG.withName("eventType"),
            nvml_h.C_LONG_LONG.withName("eventData"),
            nvml_h.C_INT.withName("gpuInstanceId"),
            nvml_h.C_INT.withName("computeInstanceId")
    ).withName("nvmlEventData_st");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final AddressLayout device$LAYOUT = (AddressLayout) $LAYOUT.select(groupElement("device"));
    private static final long device$OFFSET = $LAYOUT.byteOffset(groupElement("device"));

    public static AddressLayout device$layout() {
        return device$LAYOUT;
    }

    public static long device$offset() {
        return device$OFFSET;
    }

    public static MemorySegment device(MemorySegment struct) {
        return struct.get(device$LAYOUT, device$OFFSET);
    }

    public static void device(MemorySegment struct, MemorySegment fieldValue) {
        struct.set(device$LAYOUT, device$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong eventType$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("eventType"));
    private static final long eventType$OFFSET = $LAYOUT.byteOffset(groupElement("eventType"));

    public static ValueLayout.OfLong eventType$layout() {
        return eventType$LAYOUT;
    }

    public static long eventType$offset() {
        return eventType$OFFSET;
    }

    public static long eventType(MemorySegment struct) {
        return struct.get(eventType$LAYOUT, eventType$OFFSET);
    }

    public static void eventType(MemorySegment struct, long fieldValue) {
        struct.set(eventType$LAYOUT, eventType$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong eventData$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("eventData"));
    private static final long eventData$OFFSET = $LAYOUT.byteOffset(groupElement("eventData"));

    public static ValueLayout.OfLong eventData$layout() {
        return eventData$LAYOUT;
    }

    public static long eventData$offset() {
        return eventData$OFFSET;
    }

    public static long eventData(MemorySegment struct) {
        return struct.get(eventData$LAYOUT, eventData$OFFSET);
    }

    public static void eventData(MemorySegment struct, long fieldValue) {
        struct.set(eventData$LAYOUT, eventData$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt gpuInstanceId$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("gpuInstanceId"));
    private static final long gpuInstanceId$OFFSET = $LAYOUT.byteOffset(groupElement("gpuInstanceId"));

    public static ValueLayout.OfInt gpuInstanceId$layout() {
        return gpuInstanceId$LAYOUT;
    }

    public static long gpuInstanceId$offset() {
        return gpuInstanceId$OFFSET;
    }

    public static int gpuInstanceId(MemorySegment struct) {
        return struct.get(gpuInstanceId$LAYOUT, gpuInstanceId$OFFSET);
    }

    public static void gpuInstanceId(MemorySegment struct, int fieldValue) {
        struct.set(gpuInstanceId$LAYOUT, gpuInstanceId$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt computeInstanceId$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("computeInstanceId"));
    private static final long computeInstanceId$OFFSET = $LAYOUT.byteOffset(groupElement("computeInstanceId"));

    public static ValueLayout.OfInt computeInstanceId$layout() {
        return computeInstanceId$LAYOUT;
    }

    public static long computeInstanceId$offset() {
        return computeInstanceId$OFFSET;
    }

    public static int computeInstanceId(MemorySegment struct) {
        return struct.get(computeInstanceId$LAYOUT, computeInstanceId$OFFSET);
    }

    public static void computeInstanceId(MemorySegment struct, int fieldValue) {
        struct.set(computeInstanceId$LAYOUT, computeInstanceId$OFFSET, fieldValue);
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
