package io.hami.nativebind.nvml.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code nvmlPciInfo_t} in the shape jextract generates (filled by nvmlDeviceGetPciInfo_v3, 68 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class nvmlPciInfo_t {

    private nvmlPciInfo_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(16, nvml_h.C_CHAR).withName("busIdLegacy"),
            nvml_h.C_INT.withName("domain"),
            nvml_h.C_INT.withName("bus"),
            nvml_h.C_INT.withName("device"),
            nvml_h.C_INT.withName("pciDeviceId"),
            nvml_h.C_INT.withName("pciSubSystemId"),
            MemoryLayout.sequenceLayout(32, nvml_h.C_CHAR).withName("busId")
    ).withName("nvmlPciInfo_st");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final SequenceLayout busIdLegacy$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("busIdLegacy"));
    private static final long busIdLegacy$OFFSET = $LAYOUT.byteOffset(groupElement("busIdLegacy"));

    public static SequenceLayout busIdLegacy$layout() {
        return busIdLegacy$LAYOUT;
    }

    public static long busIdLegacy$offset() {
        return busIdLegacy$OFFSET;
    }

    public static MemorySegment busIdLegacy(MemorySegment struct) {
        return struct.asSlice(busIdLegacy$OFFSET, busIdLegacy$LAYOUT.byteSize());
    }

    public static void busIdLegacy(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, busIdLegacy$OFFSET, busIdLegacy$LAYOUT.byteSize());
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

    private static final ValueLayout.OfInt pciDeviceId$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("pciDeviceId"));
    private static final long pciDeviceId$OFFSET = $LAYOUT.byteOffset(groupElement("pciDeviceId"));

    public static ValueLayout.OfInt pciDeviceId$layout() {
        return pciDeviceId$LAYOUT;
    }

    public static long pciDeviceId$offset() {
        return pciDeviceId$OFFSET;
    }

    public static int pciDeviceId(MemorySegment struct) {
        return struct.get(pciDeviceId$LAYOUT, pciDeviceId$OFFSET);
    }

    public static void pciDeviceId(MemorySegment struct, int fieldValue) {
        struct.set(pciDeviceId$LAYOUT, pciDeviceId$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt pciSubSystemId$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("pciSubSystemId"));
    private static final long pciSubSystemId$OFFSET = $LAYOUT.byteOffset(groupElement("pciSubSystemId"));

    public static ValueLayout.OfInt pciSubSystemId$layout() {
        return pciSubSystemId$LAYOUT;
    }

    public static long pciSubSystemId$offset() {
        return pciSubSystemId$OFFSET;
    }

    public static int pciSubSystemId(MemorySegment struct) {
        return struct.get(pciSubSystemId$LAYOUT, pciSubSystemId$OFFSET);
    }

    public static void pciSubSystemId(MemorySegment struct, int fieldValue) {
        struct.set(pciSubSystemId$LAYOUT, pciSubSystemId$OFFSET, fieldValue);
    }

    private static final SequenceLayout busId$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("busId"));
    private static final long busId$OFFSET = $LAYOUT.byteOffset(groupElement("busId"));

    public static SequenceLayout busId$layout() {
        return busId$LAYOUT;
    }

    public static long busId$offset() {
        return busId$OFFSET;
    }

    public static MemorySegment busId(MemorySegment struct) {
        return struct.asSlice(busId$OFFSET, busId$LAYOUT.byteSize());
    }

    public static void busId(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, busId$OFFSET, busId$LAYOUT.byteSize());
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
