package io.hami.protocol.codec;

import java.time.Instant;

/** {@code hami.io/bind-time} and {@code hami.io/vgpu-time}: decimal Unix seconds. */
public final class UnixTimeCodec {
    private UnixTimeCodec() {}

    /** The last second of year 9999 UTC: later times are no clock's reading, as are times before 1970. */
    static final long MAX_SECONDS = 253_402_300_799L;

    public static Instant decode(String value) throws AnnotationFormatException {
        var seconds = GoStrconv.parseInt(value, 0, MAX_SECONDS);
        if (seconds.isEmpty()) {
            throw new AnnotationFormatException("invalid Unix time " + GoStrconv.quote(value)
                    + ", want decimal seconds from 0 to " + MAX_SECONDS + " (year 9999)");
        }
        return Instant.ofEpochSecond(seconds.getAsLong());
    }

    /** Whole seconds; a fraction is dropped, as Go's {@code time.Now().Unix()} does. */
    public static String encode(Instant time) {
        return Long.toString(time.getEpochSecond());
    }
}
