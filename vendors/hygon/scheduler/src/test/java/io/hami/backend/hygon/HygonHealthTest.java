package io.hami.backend.hygon;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.health.HealthVerdict;
import io.hami.protocol.testing.KubeFixtures;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Design D3 (docs/design.md#d3) for Hygon: the shared check on hami.io/node-handshake-hcu and Allocatable hygon.com/hcunum. */
class HygonHealthTest {
    private static final HygonBackend BACKEND = new HygonBackend(HygonConfig.DEFAULTS);
    private static final Instant NOW = Instant.parse("2024-01-23T04:30:04Z");
    private static final HealthMemory MEMORY = new HealthMemory(2, "kept");

    private static Node node(String handshake, String hcunum) {
        Map<String, String> annotations =
                handshake == null ? Map.of() : Map.of("hami.io/node-handshake-hcu", handshake);
        Map<String, String> allocatable = hcunum == null ? Map.of() : Map.of("hygon.com/hcunum", hcunum);
        return KubeFixtures.node("h1", annotations, Map.of(), allocatable);
    }

    @Test
    void noHandshakeIsRequestedAndRefreshed() {
        assertThat(BACKEND.checkHealth(node(null, null), NOW, MEMORY))
                .isEqualTo(new HealthVerdict(true, true, Optional.of("Requesting_2024-01-23 04:30:04"), MEMORY));
    }

    @Test
    void anAnswerRefreshesAndRequestsAgain() {
        assertThat(BACKEND.checkHealth(node("Reported_2024-01-23 04:30:01", "4"), NOW, MEMORY))
                .isEqualTo(new HealthVerdict(true, true, Optional.of("Requesting_2024-01-23 04:30:04"), MEMORY));
    }

    @Test
    void aPendingRequestKeepsTheCachedDevices() {
        assertThat(BACKEND.checkHealth(node("Requesting_2024-01-23 04:29:30", "0"), NOW, MEMORY))
                .isEqualTo(new HealthVerdict(true, false, Optional.empty(), MEMORY));
    }

    @Test
    void anExpiredRequestIsHealthyWhileHcunumIsPositive() {
        assertThat(BACKEND.checkHealth(node("Requesting_2024-01-23 04:00:00", "4"), NOW, MEMORY))
                .isEqualTo(new HealthVerdict(true, false, Optional.empty(), MEMORY));
    }

    @Test
    void anExpiredRequestWithoutHcunumIsUnhealthy() {
        assertThat(BACKEND.checkHealth(node("Requesting_2024-01-23 04:00:00", "0"), NOW, MEMORY))
                .isEqualTo(new HealthVerdict(false, false, Optional.empty(), MEMORY));
        assertThat(BACKEND.checkHealth(node("Requesting_2024-01-23 04:00:00", null), NOW, MEMORY)
                        .healthy())
                .isFalse();
    }

    @Test
    void theCountResourceFollowsTheConfiguration() {
        var d = HygonConfig.DEFAULTS;
        var backend = new HygonBackend(new HygonConfig("x/hcu", d.resourceMemoryName(), d.resourceCoreName(), 1));
        var node = KubeFixtures.node(
                "h1",
                Map.of("hami.io/node-handshake-hcu", "Requesting_2024-01-23 04:00:00"),
                Map.of(),
                Map.of("x/hcu", "2"));
        assertThat(backend.checkHealth(node, NOW, MEMORY).healthy()).isTrue();
    }
}
