package io.hami.protocol.codec;

import java.time.DateTimeException;
import java.time.Instant;

/** {@code hami.io/bind-time} and {@code hami.io/vgpu-time}: decimal Unix seconds. */
public final class UnixTimeCodec {
    private UnixTimeCodec() {
    }

    public static Instant decode(String value) throws AnnotationFormatException {
        var seconds = GoStrconv.parseInt(value, Long.MIN_VALUE, Long.MAX_VALUE);
        if (seconds.isEmpty()) {
            throw new AnnotationFormatException("invalid Unix time, want decimal seconds: " + GoStrconv.quote(value));
        }
        try {
            return Instant.ofEpochSecond(seconds.getAsLong());
        } catch (DateTimeException e) {
            throw new AnnotationFormatException("Unix time out of range: " + GoStrconv.quote(value));
        }
    }

    /** Whole seconds; a fraction is dropped, as Go's {@code time.Now().Unix()} does. */
    public static String encode(Instant time) {
        return Long.toString(time.getEpochSecond());
    }
}
