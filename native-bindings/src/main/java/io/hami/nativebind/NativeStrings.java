package io.hami.nativebind;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/** Decodes C strings without ever reading past a known bound. */
public final class NativeStrings {

    /** Upper bound for strings the libraries return by pointer (error texts, names). */
    public static final int MAX_RETURNED_STRING = 4096;

    private NativeStrings() {}

    /** The UTF-8 text before the first NUL of {@code buffer}, or all of it when there is none (e.g. CNDev UUIDs). */
    public static String decode(MemorySegment buffer) {
        long length = 0;
        while (length < buffer.byteSize() && buffer.get(ValueLayout.JAVA_BYTE, length) != 0) {
            length++;
        }
        return new String(buffer.asSlice(0, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
    }

    /** A {@code const char*} the library returned; a NULL pointer gives {@code fallback}. */
    public static String decodePointer(MemorySegment pointer, String fallback) {
        if (pointer.equals(MemorySegment.NULL)) {
            return fallback;
        }
        return decode(pointer.reinterpret(MAX_RETURNED_STRING));
    }
}
