package io.hami.plugin.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The plugin's clocks. Production uses {@link #DEFAULTS}; tests shorten them.
 *
 * @param registerPeriod    how often the register loop compares the inventory (design D7 in docs/design.md#d7: 30 s)
 * @param registerRetry     the wait after a failed register cycle (design D7: 5 s)
 * @param handshakePoll     how often the node's handshake is read; well under the scheduler's 60 s window
 * @param healthWait        how long one health poll or event wait may block
 * @param ambiguityWait     how long Allocate waits for an ambiguous node (several pods waiting, or one without a
 *                          decision) to settle
 * @param registrationRetry the wait between attempts to register with the kubelet
 * @param socketCheck       how often the sockets are checked, besides file-system events
 */
public record Timings(
        Duration registerPeriod,
        Duration registerRetry,
        Duration handshakePoll,
        Duration healthWait,
        Duration ambiguityWait,
        Duration registrationRetry,
        Duration socketCheck) {

    public static final Timings DEFAULTS = new Timings(
            Duration.ofSeconds(30),
            Duration.ofSeconds(5),
            Duration.ofSeconds(5),
            Duration.ofSeconds(5),
            Duration.ofSeconds(3),
            Duration.ofSeconds(2),
            Duration.ofSeconds(5));

    public Timings {
        Objects.requireNonNull(registerPeriod, "registerPeriod");
        Objects.requireNonNull(registerRetry, "registerRetry");
        Objects.requireNonNull(handshakePoll, "handshakePoll");
        Objects.requireNonNull(healthWait, "healthWait");
        Objects.requireNonNull(ambiguityWait, "ambiguityWait");
        Objects.requireNonNull(registrationRetry, "registrationRetry");
        Objects.requireNonNull(socketCheck, "socketCheck");
    }
}
