package io.hami.nativebind.rocm.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;

/**
 * {@code rsmi_evt_notification_data_t} in the shape jextract generates (one event notification, 72 bytes on x86_64).
 * StructLayoutTest checks it against the C compiler's layout of the same header.
 */
public final class rsmi_evt_notification_data_t {

    private rsmi_evt_notification_data_t() {}

    private static final GroupLayout $LAYOUT = MemoryLayout.structLayout(
            rocm_smi_h.C_INT.withName("dv_ind"),
            rocm_smi_h.C_INT.withName("event"),
            MemoryLayout.sequenceLayout(64, rocm_smi_h.C_CHAR).withName("message")
    ).withName("rsmi_evt_notification_data_t");

    public static GroupLayout layout() {
        return $LAYOUT;
    }

    private static final ValueLayout.OfInt dv_ind$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("dv_ind"));
    private static final long dv_ind$OFFSET = $LAYOUT.byteOffset(groupElement("dv_ind"));

    public static ValueLayout.OfInt dv_ind$layout() {
        return dv_ind$LAYOUT;
    }

    public static long dv_ind$offset() {
        return dv_ind$OFFSET;
    }

    public static int dv_ind(MemorySegment struct) {
        return struct.get(dv_ind$LAYOUT, dv_ind$OFFSET);
    }

    public static void dv_ind(MemorySegment struct, int fieldValue) {
        struct.set(dv_ind$LAYOUT, dv_ind$OFFSET, fieldValue);
    }

    private static final ValueLayout.OfInt event$LAYOUT = (ValueLayout.OfInt) $LAYOUT.select(groupElement("event"));
    private static final long event$OFFSET = $LAYOUT.byteOffset(groupElement("event"));

    public static ValueLayout.OfInt event$layout() {
        return event$LAYOUT;
    }

    public static long event$offset() {
        return event$OFFSET;
    }

    public static int event(MemorySegment struct) {
        return struct.get(event$LAYOUT, event$OFFSET);
    }

    public static void event(MemorySegment struct, int fieldValue) {
        struct.set(event$LAYOUT, event$OFFSET, fieldValue);
    }

    private static final SequenceLayout message$LAYOUT = (SequenceLayout) $LAYOUT.select(groupElement("message"));
    private static final long message$OFFSET = $LAYOUT.byteOffset(groupElement("message"));

    public static SequenceLayout message$layout() {
        return message$LAYOUT;
    }

    public static long message$offset() {
        return message$OFFSET;
    }

    public static MemorySegment message(MemorySegment struct) {
        return struct.asSlice(message$OFFSET, message$LAYOUT.byteSize());
    }

    public static void message(MemorySegment struct, MemorySegment fieldValue) {
        MemorySegment.copy(fieldValue, 0L, struct, message$OFFSET, message$LAYOUT.byteSize());
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
