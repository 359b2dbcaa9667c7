package io.hami.protocol.codec;

import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;

/**
 * Handshake values {@code Requesting_YYYY-MM-DD HH:MM:SS} and {@code Reported_YYYY-MM-DD HH:MM:SS} (design D2
 * and D3 in docs/design.md#d2 and docs/design.md#d3).
 */
public final class HandshakeCodec {
    private HandshakeCodec() {}

    public static Handshake decode(String value) throws AnnotationFormatException {
        for (Handshake.State state : Handshake.State.values()) {
            String prefix = state.name() + "_";
            if (value.startsWith(prefix)) {
                String time = value.substring(prefix.length());
                try {
                    return new Handshake(state, LocalDateTime.parse(time, GoTime.DATE_TIME));
                } catch (DateTimeParseException e) {
                    throw new AnnotationFormatException(
                            "invalid handshake time, want YYYY-MM-DD HH:MM:SS: " + GoStrconv.quote(time));
                }
            }
        }
        throw new AnnotationFormatException(
                "invalid handshake value, want Requesting_<time> or Reported_<time>: " + GoStrconv.quote(value));
    }

    public static String encode(Handshake handshake) {
        if (handshake.time().getYear() < 0 || handshake.time().getYear() > 9999) {
            throw new IllegalArgumentException("handshake year out of range 0000-9999: " + handshake.time());
        }
        return handshake.state().name() + "_" + GoTime.DATE_TIME.format(handshake.time());
    }
}
