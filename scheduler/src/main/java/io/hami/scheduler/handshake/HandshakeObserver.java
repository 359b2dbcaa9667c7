package io.hami.scheduler.handshake;

import io.hami.protocol.health.HealthVerdict;

/** Receives each round's verdict per node and vendor (for the handshake-state metric). */
@FunctionalInterface
public interface HandshakeObserver {
    void verdict(String node, String vendor, HealthVerdict verdict);

    HandshakeObserver NONE = (node, vendor, verdict) -> {};
}
