package io.hami.protocol.codec;

/**
 * The typed error every decoder returns for input it cannot read. The message names the field and quotes
 * the offending text, for example {@code invalid memory field in device 2: "12x"}.
 */
public final class AnnotationFormatException extends Exception {
    public AnnotationFormatException(String message) {
        super(message);
    }
}
