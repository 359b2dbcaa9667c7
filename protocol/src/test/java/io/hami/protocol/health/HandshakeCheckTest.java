package io.hami.protocol.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.hami.protocol.testing.KubeFixtures;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Design D3 (docs/design.md#d3) with a fixed UTC clock. */
class HandshakeCheckTest {
    private static final String KEY = "example.io/handshake";
    private static final String COUNT = "example.com/gpu";
    private static final Instant NOW = Instant.parse("2024-01-23T04:30:04Z");
    private static final HealthMemory MEMORY = new HealthMemory(3, "reg");

    private static Node node(String handshake, String allocatable) {
        Map<String, String> annotations = handshake == null ? Map.of() : Map.of(KEY, handshake);
        Map<String, String> alloc = allocatable == null ? Map.of() : Map.of(COUNT, allocatable);
        return KubeFixtures.node("n1", annotations, Map.of(), alloc);
    }

    private static HealthVerdict check(Node node, Instant now) {
        return HandshakeCheck.check(node, KEY, COUNT, now, MEMORY);
    }

    @Test
    void requestingValueIsUtcInTheProtocolLayout() {
        assertThat(HandshakeCheck.requesting(NOW)).isEqualTo("Requesting_2024-01-23 04:30:04");
        assertThat(HandshakeCheck.requesting(Instant.parse("2024-01-23T04:30:04.999Z")))
                .isEqualTo("Requesting_2024-01-23 04:30:04");
    }

    @Test
    void noHandshakeYetIsHealthyRefreshedAndRequested() {
        assertThat(check(node(null, null), NOW))
                .isEqualTo(new HealthVerdict(true, true, Optional.of("Requesting_2024-01-23 04:30:04"), MEMORY));
    }

    @Test
    void anAnsweredHandshakeIsHealthyRefreshedAndRequestedAgain() {
        var verdict = check(node("Reported_2024-01-23 04:29:50", "0"), NOW);
        assertThat(verdict)
                .isEqualTo(new HealthVerdict(true, true, Optional.of("Requesting_2024-01-23 04:30:04"), MEMORY));
    }

    @Test
    void anyValueWithoutRequestingCountsAsAnswered() {
        assertThat(check(node("Deleted_2024-01-23 04:00:00", "0"), NOW).handshakeToWrite())
                .isPresent();
        assertThat(check(node("garbage", "0"), NOW).refresh()).isTrue();
    }

    @Test
    void aPendingRequestWithinSixtySecondsIsHealthyWithoutRefresh() {
        var verdict = check(node("Requesting_2024-01-23 04:30:00", "0"), NOW);
        assertThat(verdict).isEqualTo(new HealthVerdict(true, false, Optional.empty(), MEMORY));
    }

    @Test
    void sixtySecondsExactlyIsStillPending() {
        var atLimit = Instant.parse("2024-01-23T04:31:04Z");
        assertThat(check(node("Requesting_2024-01-23 04:30:04", "0"), atLimit).healthy())
                .isTrue();
        assertThat(check(node("Requesting_2024-01-23 04:30:04", "0"), atLimit.plusSeconds(1))
                        .healthy())
                .isFalse();
    }

    @Test
    void anExpiredRequestWithPositiveAllocatableStaysHealthy() {
        var later = NOW.plusSeconds(3600);
        var verdict = check(node("Requesting_2024-01-23 04:30:04", "4"), later);
        assertThat(verdict).isEqualTo(new HealthVerdict(true, false, Optional.empty(), MEMORY));
    }

    @Test
    void anExpiredRequestWithoutAllocatableIsUnhealthy() {
        var later = NOW.plusSeconds(61);
        assertThat(check(node("Requesting_2024-01-23 04:30:04", "0"), later))
                .isEqualTo(new HealthVerdict(false, false, Optional.empty(), MEMORY));
        assertThat(check(node("Requesting_2024-01-23 04:30:04", null), later).healthy())
                .isFalse();
    }

    @Test
    void theRequestTimeIsReadAsUtc() {
        // 04:30:04 UTC is 12:30:04 in UTC+8; a check at 04:31:30 UTC must see it expired
        var verdict = check(node("Requesting_2024-01-23 04:30:04", "0"), Instant.parse("2024-01-23T04:31:30Z"));
        assertThat(verdict.healthy()).isFalse();
    }

    @Test
    void anUnreadableRequestCountsAsExpiredAtOnce() {
        // design D3: a request of unknown age is old, so without allocatable devices the vendor is withdrawn (and the
        // loop
        // deletes the key, so the next round asks again) instead of counting as pending forever.
        for (String value : new String[] {
            "Requesting_2024.01.10 04:06:57",
            "Requesting",
            "Requesting_2024-02-30 04:06:57",
            "Requesting_",
            "xRequesting_2024-01-23 04:30:0"
        }) {
            assertThat(HandshakeCheck.unreadableRequest(value)).as(value).isTrue();
            assertThat(check(node(value, "0"), NOW))
                    .as(value)
                    .isEqualTo(new HealthVerdict(false, false, Optional.empty(), MEMORY));
            assertThat(check(node(value, "4"), NOW))
                    .as(value)
                    .isEqualTo(new HealthVerdict(true, false, Optional.empty(), MEMORY));
        }
    }

    @Test
    void readableAndAnsweredValuesAreNotUnreadableRequests() {
        assertThat(HandshakeCheck.unreadableRequest("Requesting_2024-01-23 04:30:04"))
                .isFalse();
        assertThat(HandshakeCheck.unreadableRequest("Reported_2024-01-23 04:30:04"))
                .isFalse();
        assertThat(HandshakeCheck.unreadableRequest("garbage")).isFalse();
        assertThat(HandshakeCheck.unreadableRequest(null)).isFalse();
    }

    @Test
    void allocatableIsReadAsAnInteger() {
        assertThat(HandshakeCheck.allocatable(node(null, "8"), COUNT)).isEqualTo(8);
        assertThat(HandshakeCheck.allocatable(node(null, null), COUNT)).isZero();
        assertThat(HandshakeCheck.allocatable(node(null, "500m"), COUNT)).isZero();
    }

    @Test
    void aNodeWithoutStatusOrAnnotationsIsReadAsEmpty() {
        var bare =
                new NodeBuilder().withNewMetadata().withName("n1").endMetadata().build();
        assertThat(check(bare, NOW).handshakeToWrite()).contains("Requesting_2024-01-23 04:30:04");
        assertThat(HandshakeCheck.allocatable(bare, COUNT)).isZero();
    }
}
