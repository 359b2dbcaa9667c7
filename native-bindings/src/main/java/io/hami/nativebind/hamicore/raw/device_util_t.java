package io.hami.nativebind.hamicore.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code device_util_t} of {@code hami_shared_region.h} in the shape jextract generates: utilisation of one device by one process, percent (version 1).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class device_util_t {

    private device_util_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            hami_shared_region_h.C_LONG.withName("dec_util"),
            hami_shared_region_h.C_LONG.withName("enc_util"),
            hami_shared_region_h.C_LONG.withName("sm_util"),
            MemoryLayout.sequenceLayout(3, hami_shared_region_h.C_LONG).withName("unused")
    ).withName("device_util_t");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final ValueLayout.OfLong dec_util$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("dec_util"));
    private static final long dec_util$OFFSET = $LAYOUT.byteOffset(groupElement("dec_util"));

    public static ValueLayout.OfLong dec_util$layout() {
        return dec_util$LAYOUT;
    }

    public static long dec_util$offset() {
        return dec_util$OFFSET;
    }

    public static long dec_util(MemorySegment struct) {
        return struct.get(dec_util$LAYOUT, dec_util$OFFSET);
    }

    public static void dec_util(MemorySegment struct, long fieldValue) {
        struct.set(dec_util$LAYOUT, dec_util$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong enc_util$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("enc_util"));
    private static final long enc_util$OFFSET = $LAYOUT.byteOffset(groupElement("enc_util"));

    public static ValueLayout.OfLong enc_util$layout() {
        return enc_util$LAYOUT;
    }

    public static long enc_util$offset() {
        return enc_util$OFFSET;
    }

    public static long enc_util(MemorySegment struct) {
        return struct.get(enc_util$LAYOUT, enc_util$OFFSET);
    }

    public static void enc_util(MemorySegment struct, long fieldValue) {
        struct.set(enc_util$LAYOUT, enc_util$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfLong sm_util$LAYOUT = (ValueLayout.OfLong) $LAYOUT.select(groupElement("sm_util"));
    private static final long sm_util$OFFSET = $LAYOUT.byteOffset(groupElement("sm_util"));

    public static ValueLayout.OfLong sm_util$layout() {
        return sm_util$LAYOUT;
    }

    public static long sm_util$offset() {
        return sm_util$OFFSET;
    }

    public static long sm_util(MemorySegment struct) {
        return struct.get(sm_util$LAYOUT, sm_util$OFFSET);
    }

    public static void sm_util(MemorySegment struct, long fieldValue) {
        struct.set(sm_util$LAYOUT, sm_util$OFFSET, fieldValue);
    }

    private static final SequenceLayout unused$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("unused"));
    private static final long unused$OFFSET = $LAYOUT.byteOffset(groupElement("unused"));

    public static SequenceLayout unused$layout() {
        return unused$LAYOUT;
    }

    public static long unused$offset() {
        return unused$OFFSET;
    }

    public static MemorySegment unused(MemorySegment struct) {
        return struct.asSlice(unused$OFFSET, unused$LAYOUT.byteSize());
    }

    public static long unused(MemorySegment struct, long index0) {
        return struct.get(hami_shared_region_h.C_LONG, unused$OFFSET + index0 * hami_shared_region_h.C_LONG.byteSize());
    }

    public static void unused(MemorySegment struct, long index0, long fieldValue) {
        struct.set(hami_shared_region_h.C_LONG, unused$OFFSET + index0 * hami_shared_region_h.C_LONG.byteSize(), fieldValue);
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
