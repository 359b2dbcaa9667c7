package io.hami.protocol.health;

import java.util.Optional;

/**
 * The design D3 (docs/design.md#d3) verdict for one node and vendor in one handshake round.
 *
 * @param healthy          false: the scheduler drops the node's devices of this vendor and deletes the handshake
 * @param refresh          true: the scheduler re-reads the node's devices into its cache
 * @param handshakeToWrite a {@code Requesting_<now>} value the scheduler must patch onto the handshake key
 * @param memory           what to pass as {@code previous} next round
 */
public record HealthVerdict(boolean healthy, boolean refresh, Optional<String> handshakeToWrite, HealthMemory memory) {
    /** Vendors without a handshake (Cambricon, Moore Threads): always healthy, re-read every round. */
    public static final HealthVerdict NO_HANDSHAKE = new HealthVerdict(true, true, Optional.empty(), HealthMemory.NONE);
}
