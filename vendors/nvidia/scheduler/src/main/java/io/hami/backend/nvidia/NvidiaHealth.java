package io.hami.backend.nvidia;

import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.health.HandshakeCheck;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.health.HealthVerdict;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * NVIDIA's health rule (design D3, docs/design.md#d3): the shared handshake check, plus the Allocatable count and the
 * register value compared with the previous round. The NVIDIA device plugin rewrites the register value
 * when its inventory changes and never answers the handshake, so these comparisons are what matter.
 */
final class NvidiaHealth {
    private NvidiaHealth() {}

    /**
     * A count that falls to 0 is unhealthy; a changed count (healthy) or a changed register value refresh the
     * devices; otherwise the shared check decides.
     */
    static HealthVerdict check(Node node, Instant now, HealthMemory previous, String countResource) {
        HealthVerdict shared = HandshakeCheck.check(node, NvidiaKeys.HANDSHAKE, countResource, now, previous);
        long count = HandshakeCheck.allocatable(node, countResource);
        String register = annotations(node).getOrDefault(NvidiaKeys.REGISTER, "");
        if (count == 0) {
            if (previous.reportedCount() == 0) {
                return shared;
            }
            // Unhealthy: the scheduler deletes the handshake, so nothing is written.
            return new HealthVerdict(false, shared.refresh(), Optional.empty(), new HealthMemory(0, register));
        }
        if (previous.reportedCount() != count) {
            return new HealthVerdict(true, true, shared.handshakeToWrite(), new HealthMemory(count, register));
        }
        if (!previous.reportedRegister().equals(register)) {
            return new HealthVerdict(
                    shared.healthy(), true, shared.handshakeToWrite(), new HealthMemory(count, register));
        }
        return shared;
    }

    private static Map<String, String> annotations(Node node) {
        Map<String, String> annotations =
                node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }
}
