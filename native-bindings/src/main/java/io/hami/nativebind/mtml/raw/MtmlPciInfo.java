package io.hami.nativebind.mtml.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code MtmlPciInfo} in the shape jextract generates (filled by mtmlDeviceGetPciInfo, 104 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class MtmlPciInfo {

    private MtmlPciInfo() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            MemoryLayout.sequenceLayout(32, mtml_h.C_CHAR).withName("sbdf"),
            mtml_h.C_INT.withName("segment"),
            mtml_h.C_INT.withName("bus"),
            mtml_h.C_INT.withName("device"),
            mtml_h.C_INT.withName("pciDeviceId"),
            mtml_h.C_INT.withName("pciSubsystemId"),
            mtml_h.C_INT.withName("busWidth"),
            mtml_h.C_FLOAT.withName("pciMaxSpeed"),
            mtml_h.C_FLOAT.withName("pciCurSpeed"),
            mtml_h.C_INT.withName("pciMaxWidth"),
            mtml_h.C_INT.withName("pciCurWidth"),
            mtml_h.C_INT.withName("pciMaxGen"),
            mtml_h.C_INT.withName("pciCurGen"),
            MemoryLayout.sequenceLayout(6, mtml_h.C_INT).withName("rsvd")
    ).withName("MtmlPciInfo");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final SequenceLayout sbdf$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("sbdf"));
    private static final long sbdf$OFFSET = $LAYOUT.byteOffset(groupElement("sbdf"));

    public static SequenceLayout sbdf$layout() {
        return sbdf$LAYOUT;
    }

    public static long sbdf$offset() {
        return sbdf$OFFSET;
    }

    public static MemorySegment sbdf(MemorySegment struct) {
        return struct.asSlice(sbdf$OFFSET, sbdf$LAYOUT.byteSize());
    }

    public static void sbdf(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, sbdf$OFFSET, sbdf$LAYOUT.byteSize());
    }

    private static final ValueLayout.OfInt segment$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("segment"));
    private static final long segment$OFFSET = $LAYOUT.byteOffset(groupElement("segment"));

    public static ValueLayout.OfInt segment$layout() {
        return segment$LAYOUT;
    }

    public static long segment$offset() {
        return segment$OFFSET;
    }

    public static int segment(MemorySegment struct) {
        return struct.get(segment$LAYOUT, segment$OFFSET);
    }

    public static void segment(MemorySegment struct, int fieldValue) {
        struct.set(segment$LAYOUT, segment$OFFSET, fieldValue);
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

    private static final ValueLayout.OfInt pciSubsystemId$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("pciSubsystemId"));
    private static final long pciSubsystemId$OFFSET = $LAYOUT.byteOffset(groupElement("pciSubsystemId"));

    public static ValueLayout.OfInt pciSubsystemId$layout() {
        return pciSubsystemId$LAYOUT;
    }

    public static long pciSubsystemId$offset() {
        return pciSubsystemId$OFFSET;
    }

    public static int pciSubsystemId(MemorySegment struct) {
        return struct.get(pciSubsystemId$LAYOUT, pciSubsystemId$OFFSET);
    }

    public static void pciSubsystemId(MemorySegment struct, int fieldValue) {
        struct.set(pciSubsystemId$LAYOUT, pciSubsystemId$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt busWidth$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("busWidth"));
    private static final long busWidth$OFFSET = $LAYOUT.byteOffset(groupElement("busWidth"));

    public static ValueLayout.OfInt busWidth$layout() {
        return busWidth$LAYOUT;
    }

    public static long busWidth$offset() {
        return busWidth$OFFSET;
    }

    public static int busWidth(MemorySegment struct) {
        return struct.get(busWidth$LAYOUT, busWidth$OFFSET);
    }

    public static void busWidth(MemorySegment struct, int fieldValue) {
        struct.set(busWidth$LAYOUT, busWidth$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfFloat pciMaxSpeed$LAYOUT = (ValueLayout.OfFloat) $LAYOUT.select(groupElement("pciMaxSpeed"));
    private static final long pciMaxSpeed$OFFSET = $LAYOUT.byteOffset(groupElement("pciMaxSpeed"));

    public static ValueLayout.OfFloat pciMaxSpeed$layout() {
        return pciMaxSpeed$LAYOUT;
    }

    public static long pciMaxSpeed$offset() {
        return pciMaxSpeed$OFFSET;
    }

    public static float pciMaxSpeed(MemorySegment struct) {
        return struct.get(pciMaxSpeed$LAYOUT, pciMaxSpeed$OFFSET);
    }

    public static void pciMaxSpeed(MemorySegment struct, float fieldValue) {
        struct.set(pciMaxSpeed$LAYOUT, pciMaxSpeed$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfFloat pciCurSpeed$LAYOUT = (ValueLayout.OfFloat) $LAYOUT.select(groupElement("pciCurSpeed"));
    private static final long pciCurSpeed$OFFSET = $LAYOUT.byteOffset(groupElement("pciCurSpeed"));

    public static ValueLayout.OfFloat pciCurSpeed$layout() {
        return pciCurSpeed$LAYOUT;
    }

    public static long pciCurSpeed$offset() {
        return pciCurSpeed$OFFSET;
    }

    public static float pciCurSpeed(MemorySegment struct) {
        return struct.get(pciCurSpeed$LAYOUT, pciCurSpeed$OFFSET);
    }

    public static void pciCurSpeed(MemorySegment struct, float fieldValue) {
        struct.set(pciCurSpeed$LAYOUT, pciCurSpeed$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt pciMaxWidth$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("pciMaxWidth"));
    private static final long pciMaxWidth$OFFSET = $LAYOUT.byteOffset(groupElement("pciMaxWidth"));

    public static ValueLayout.OfInt pciMaxWidth$layout() {
        return pciMaxWidth$LAYOUT;
    }

    public static long pciMaxWidth$offset() {
        return pciMaxWidth$OFFSET;
    }

    public static int pciMaxWidth(MemorySegment struct) {
        return struct.get(pciMaxWidth$LAYOUT, pciMaxWidth$OFFSET);
    }

    public static void pciMaxWidth(MemorySegment struct, int fieldValue) {
        struct.set(pciMaxWidth$LAYOUT, pciMaxWidth$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt pciCurWidth$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("pciCurWidth"));
    private static final long pciCurWidth$OFFSET = $LAYOUT.byteOffset(groupElement("pciCurWidth"));

    public static ValueLayout.OfInt pciCurWidth$layout() {
        return pciCurWidth$LAYOUT;
    }

    public static long pciCurWidth$offset() {
        return pciCurWidth$OFFSET;
    }

    public static int pciCurWidth(MemorySegment struct) {
        return struct.get(pciCurWidth$LAYOUT, pciCurWidth$OFFSET);
    }

    public static void pciCurWidth(MemorySegment struct, int fieldValue) {
        struct.set(pciCurWidth$LAYOUT, pciCurWidth$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt pciMaxGen$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("pciMaxGen"));
    private static final long pciMaxGen$OFFSET = $LAYOUT.byteOffset(groupElement("pciMaxGen"));

    public static ValueLayout.OfInt pciMaxGen$layout() {
        return pciMaxGen$LAYOUT;
    }

    public static long pciMaxGen$offset() {
        return pciMaxGen$OFFSET;
    }

    public static int pciMaxGen(MemorySegment struct) {
        return struct.get(pciMaxGen$LAYOUT, pciMaxGen$OFFSET);
    }

    public static void pciMaxGen(MemorySegment struct, int fieldValue) {
        struct.set(pciMaxGen$LAYOUT, pciMaxGen$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt pciCurGen$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("pciCurGen"));
    private static final long pciCurGen$OFFSET = $LAYOUT.byteOffset(groupElement("pciCurGen"));

    public static ValueLayout.OfInt pciCurGen$layout() {
        return pciCurGen$LAYOUT;
    }

    public static long pciCurGen$offset() {
        return pciCurGen$OFFSET;
    }

    public static int pciCurGen(MemorySegment struct) {
        return struct.get(pciCurGen$LAYOUT, pciCurGen$OFFSET);
    }

    public static void pciCurGen(MemorySegment struct, int fieldValue) {
        struct.set(pciCurGen$LAYOUT, pciCurGen$OFFSET, fieldValue);
    }

    private static final SequenceLayout rsvd$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("rsvd"));
    private static final long rsvd$OFFSET = $LAYOUT.byteOffset(groupElement("rsvd"));

    public static SequenceLayout rsvd$layout() {
        return rsvd$LAYOUT;
    }

    public static long rsvd$offset() {
        return rsvd$OFFSET;
    }

    public static MemorySegment rsvd(MemorySegment struct) {
        return struct.asSlice(rsvd$OFFSET, rsvd$LAYOUT.byteSize());
    }

    public static void rsvd(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, rsvd$OFFSET, rsvd$LAYOUT.byteSize());
    }

    public static int rsvd(MemorySegment struct, long index) {
        return struct.getAtIndex((ValueLayout.OfInt) rsvd$LAYOUT.elementLayout(), rsvd$OFFSET / 4 + index);
    }

    public static void rsvd(MemorySegment struct, long index, int fieldValue) {
        struct.setAtIndex((ValueLayout.OfInt) rsvd$LAYOUT.elementLayout(), rsvd$OFFSET / 4 + index, fieldValue);
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
