package io.hami.protocol.codec;

import java.time.LocalDateTime;
import java.util.Objects;

/**
 * A handshake annotation value (design D2/D3, docs/design.md#d2 and docs/design.md#d3):
 * {@code Requesting_YYYY-MM-DD HH:MM:SS} written by the scheduler, {@code Reported_YYYY-MM-DD HH:MM:SS} written by a
 * device plugin. Times are UTC.
 */
public record Handshake(State state, LocalDateTime time) {
    public Handshake {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(time, "time");
        time = time.withNano(0);
    }

    public enum State {
        Requesting,
        Reported
    }
}
