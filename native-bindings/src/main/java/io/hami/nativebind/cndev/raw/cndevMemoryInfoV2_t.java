package io.hami.nativebind.cndev.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code cndevMemoryInfoV2_t} in the shape jextract generates (MB; no version field, 176 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class cndevMemoryInfoV2_t {

    private cndevMemoryInfoV2_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            cndev_h.C_LONG.withName("physicalMemoryTotal"),
            cndev_h.C_LONG.withName("physicalMemoryUsed"),
            cndev_h.C_LONG.withName("reservedMemory"),
            cndev_h.C_LONG.withName("virtualMemoryTotal"),
            cndev_h.C_LONG.withName("virtualMemoryUsed"),
            cndev_h.C_LONG.withName("globalMemory"),
            MemoryLayout.sequenceLayout(16, cndev_h.C_LONG).withName("reserved")
    ).withName("cndevMemoryInfoV2_t");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final ValueLayout.OfLong physicalMemoryTotal$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("physicalMemoryTotal"));
    private static final long physicalMemoryTotal$OFFSET = $LAYOUT.byteOffset(groupElement("physicalMemoryTotal"));

    public static ValueLayout.OfLong physicalMemoryTotal$layout() {
        return physicalMemoryTotal$LAYOUT;
    }

    public static long physicalMemoryTotal$offset() {
        return physicalMemoryTotal$OFFSET;
    }

    public static long physicalMemoryTotal(MemorySegment struct) {
        return struct.get(physicalMemoryTotal$LAYOUT, physicalMemoryTotal$OFFSET);
    }

    public static void physicalMemoryTotal(MemorySegment struct, long fieldValue) {
        struct.set(physicalMemoryTotal$LAYOUT, physicalMemoryTotal$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong physicalMemoryUsed$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("physicalMemoryUsed"));
    private static final long physicalMemoryUsed$OFFSET = $LAYOUT.byteOffset(groupElement("physicalMemoryUsed"));

    public static ValueLayout.OfLong physicalMemoryUsed$layout() {
        return physicalMemoryUsed$LAYOUT;
    }

    public static long physicalMemoryUsed$offset() {
        return physicalMemoryUsed$OFFSET;
    }

    public static long physicalMemoryUsed(MemorySegment struct) {
        return struct.get(physicalMemoryUsed$LAYOUT, physicalMemoryUsed$OFFSET);
    }

    public static void physicalMemoryUsed(MemorySegment struct, long fieldValue) {
        struct.set(physicalMemoryUsed$LAYOUT, physicalMemoryUsed$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong reservedMemory$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("reservedMemory"));
    private static final long reservedMemory$OFFSET = $LAYOUT.byteOffset(groupElement("reservedMemory"));

    public static ValueLayout.OfLong reservedMemory$layout() {
        return reservedMemory$LAYOUT;
    }

    public static long reservedMemory$offset() {
        return reservedMemory$OFFSET;
    }

    public static long reservedMemory(MemorySegment struct) {
        return struct.get(reservedMemory$LAYOUT, reservedMemory$OFFSET);
    }

    public static void reservedMemory(MemorySegment struct, long fieldValue) {
        struct.set(reservedMemory$LAYOUT, reservedMemory$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong virtualMemoryTotal$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("virtualMemoryTotal"));
    private static final long virtualMemoryTotal$OFFSET = $LAYOUT.byteOffset(groupElement("virtualMemoryTotal"));

    public static ValueLayout.OfLong virtualMemoryTotal$layout() {
        return virtualMemoryTotal$LAYOUT;
    }

    public static long virtualMemoryTotal$offset() {
        return virtualMemoryTotal$OFFSET;
    }

    public static long virtualMemoryTotal(MemorySegment struct) {
        return struct.get(virtualMemoryTotal$LAYOUT, virtualMemoryTotal$OFFSET);
    }

    public static void virtualMemoryTotal(MemorySegment struct, long fieldValue) {
        struct.set(virtualMemoryTotal$LAYOUT, virtualMemoryTotal$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong virtualMemoryUsed$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("virtualMemoryUsed"));
    private static final long virtualMemoryUsed$OFFSET = $LAYOUT.byteOffset(groupElement("virtualMemoryUsed"));

    public static ValueLayout.OfLong virtualMemoryUsed$layout() {
        return virtualMemoryUsed$LAYOUT;
    }

    public static long virtualMemoryUsed$offset() {
        return virtualMemoryUsed$OFFSET;
    }

    public static long virtualMemoryUsed(MemorySegment struct) {
        return struct.get(virtualMemoryUsed$LAYOUT, virtualMemoryUsed$OFFSET);
    }

    public static void virtualMemoryUsed(MemorySegment struct, long fieldValue) {
        struct.set(virtualMemoryUsed$LAYOUT, virtualMemoryUsed$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong globalMemory$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("globalMemory"));
    private static final long globalMemory$OFFSET = $LAYOUT.byteOffset(groupElement("globalMemory"));

    public static ValueLayout.OfLong globalMemory$layout() {
        return globalMemory$LAYOUT;
    }

    public static long globalMemory$offset() {
        return globalMemory$OFFSET;
    }

    public static long globalMemory(MemorySegment struct) {
        return struct.get(globalMemory$LAYOUT, globalMemory$OFFSET);
    }

    public static void globalMemory(MemorySegment struct, long fieldValue) {
        struct.set(globalMemory$LAYOUT, globalMemory$OFFSET, fieldValue);
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

    public static long reserved(MemorySegment struct, long index) {
        return struct.getAtIndex((ValueLayout.OfLong) reserved$LAYOUT.elementLayout(), reserved$OFFSET / 8 + index);
    }

    public static void reserved(MemorySegment struct, long index, long fieldValue) {
        struct.setAtIndex((ValueLayout.OfLong) reserved$LAYOUT.elementLayout(), reserved$OFFSET / 8 + index, fieldValue);
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
