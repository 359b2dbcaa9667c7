package io.hami.nativebind.nvml.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code nvmlUtilization_t} in the shape jextract generates (percent over the driver's last sample period, 8 bytes).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class nvmlUtilization_t {

    private nvmlUtilization_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            nvml_h.C_INT.withName("gpu"),
            nvml_h.C_INT.withName("memory")
    ).withName("nvmlUtilization_st");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final ValueLayout.OfInt gpu$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("gpu"));
    private static final long gpu$OFFSET = $LAYOUT.byteOffset(groupElement("gpu"));

    public static ValueLayout.OfInt gpu$layout() {
        return gpu$LAYOUT;
    }

    public static long gpu$offset() {
        return gpu$OFFSET;
    }

    public static int gpu(MemorySegment struct) {
        return struct.get(gpu$LAYOUT, gpu$OFFSET);
    }

    public static void gpu(MemorySegment struct, int fieldValue) {
        struct.set(gpu$LAYOUT, gpu$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt memory$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("memory"));
    private static final long memory$OFFSET = $LAYOUT.byteOffset(groupElement("memory"));

    public static ValueLayout.OfInt memory$layout() {
        return memory$LAYOUT;
    }

    public static long memory$offset() {
        return memory$OFFSET;
    }

    public static int memory(MemorySegment struct) {
        return struct.get(memory$LAYOUT, memory$OFFSET);
    }

    public static void memory(MemorySegment struct, int fieldValue) {
        struct.set(memory$LAYOUT, memory$OFFSET, fieldValue);
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
