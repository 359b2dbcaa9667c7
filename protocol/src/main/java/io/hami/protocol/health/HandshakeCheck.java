package io.hami.protocol.health;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.quantity.ResourceAmount;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.util.Map;
import java.util.Optional;

/**
 * The shared scheduler-side handshake check of design D3 (docs/design.md#d3), used as is by vendors with a handshake key and
 * wrapped by NVIDIA. A pure function: the caller runs it every tick, writes
 * {@link HealthVerdict#handshakeToWrite()} and applies the verdict.
 */
public final class HandshakeCheck {

    /** How long a device plugin has to answer a {@code Requesting_} value. */
    public static final Duration ANSWER_TIME = Duration.ofSeconds(60);

    private static final String REQUESTING = "Requesting";
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withResolverStyle(ResolverStyle.STRICT);

    private HandshakeCheck() {}

    /**
     * The verdict for the node's handshake value under {@code handshakeKey} at {@code now}:
     * <ul>
     *   <li>a pending {@code Requesting_<t>} (any value containing {@code Requesting}): healthy without refresh
     *       while {@code now <= t + 60 s}, or when {@code t} cannot be read; once expired, healthy without refresh
     *       while Allocatable {@code countResource} is positive, otherwise unhealthy;</li>
     *   <li>anything else (absent, {@code Reported_...}): answered, so healthy, refresh, and a new
     *       {@code Requesting_<now>} to write.</li>
     * </ul>
     * Times are UTC. {@code previous} is returned unchanged: this check remembers nothing.
     */
    public static HealthVerdict check(
            Node node, String handshakeKey, String countResource, Instant now, HealthMemory previous) {
        String value = annotations(node).get(handshakeKey);
        if (value == null || !value.contains(REQUESTING)) {
            return new HealthVerdict(true, true, Optional.of(requesting(now)), previous);
        }
        boolean pending =
                requestedAt(value).map(t -> !now.isAfter(t.plus(ANSWER_TIME))).orElse(false);
        boolean healthy = pending || allocatable(node, countResource) > 0;
        return new HealthVerdict(healthy, false, Optional.empty(), previous);
    }

    /** Whether {@code value} is a request whose time cannot be read (so {@link #check} treats it as expired). */
    public static boolean unreadableRequest(String value) {
        return value != null && value.contains(REQUESTING) && requestedAt(value).isEmpty();
    }

    /** The value the scheduler writes to ask for an answer: {@code Requesting_YYYY-MM-DD HH:MM:SS} in UTC. */
    public static String requesting(Instant now) {
        return REQUESTING + "_" + TIME.format(LocalDateTime.ofInstant(now, ZoneOffset.UTC));
    }

    /**
     * The node's Allocatable count of {@code resource}; 0 when absent or not an integer (kubelets advertise
     * extended resources as integers).
     */
    public static long allocatable(Node node, String resource) {
        Map<String, Quantity> allocatable =
                node.getStatus() == null ? null : node.getStatus().getAllocatable();
        Quantity quantity = allocatable == null ? null : allocatable.get(resource);
        return quantity == null ? 0 : ResourceAmount.of(quantity).int64().orElse(0);
    }

    /** The time after the first {@code _}, if it reads as {@code YYYY-MM-DD HH:MM:SS}. */
    private static Optional<Instant> requestedAt(String value) {
        int underscore = value.indexOf('_');
        if (underscore < 0) {
            return Optional.empty();
        }
        try {
            return Optional.of(
                    LocalDateTime.parse(value.substring(underscore + 1), TIME).toInstant(ZoneOffset.UTC));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Map<String, String> annotations(Node node) {
        Map<String, String> annotations =
                node.getMetadata() == null ? null : node.getMetadata().getAnnotations();
        return annotations == null ? Map.of() : annotations;
    }
}
