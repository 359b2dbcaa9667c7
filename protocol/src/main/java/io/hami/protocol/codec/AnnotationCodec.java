package io.hami.protocol.codec;

/**
 * How {@code hami annotation} reads and writes a vendor's own node annotation ({@code AnnotationKind.VendorNodeKey}):
 * the value as canonical JSON, and canonical JSON back to the exact value.
 */
public interface AnnotationCodec {
    /** The value as canonical JSON; an error when the value does not decode. */
    String toJson(String value) throws AnnotationFormatException;

    /** The exact annotation value for canonical JSON (the output of {@link #toJson}). */
    String fromJson(String json) throws AnnotationFormatException;
}
