package io.hami.backend.nvidia;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.health.HealthVerdict;
import io.hami.protocol.testing.KubeFixtures;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Design D3 (docs/design.md#d3) for NVIDIA, with a fixed UTC clock. */
class NvidiaHealthTest {
    private static final NvidiaBackend BACKEND = new NvidiaBackend(NvidiaConfig.DEFAULTS);
    private static final Instant NOW = Instant.parse("2024-01-23T04:30:04Z");
    private static final String REQUESTED_NOW = "Requesting_2024-01-23 04:30:04";
    private static final String REGISTER = "[{\"id\":\"GPU-a\",\"count\":10}]";

    private static Node node(String handshake, String register, String allocatable) {
        Map<String, String> annotations = new HashMap<>();
        if (handshake != null) {
            annotations.put("hami.io/node-handshake", handshake);
        }
        if (register != null) {
            annotations.put("hami.io/node-nvidia-register", register);
        }
        Map<String, String> alloc = allocatable == null ? Map.of() : Map.of("nvidia.com/gpu", allocatable);
        return KubeFixtures.node("gpu-1", annotations, Map.of(), alloc);
    }

    @Test
    void firstRoundRemembersCountAndRegisterAndRequestsAHandshake() {
        var verdict = BACKEND.checkHealth(node(null, REGISTER, "40"), NOW, HealthMemory.NONE);
        assertThat(verdict)
                .isEqualTo(new HealthVerdict(true, true, Optional.of(REQUESTED_NOW), new HealthMemory(40, REGISTER)));
    }

    @Test
    void aPendingHandshakeWithNothingChangedIsHealthyWithoutRefresh() {
        var memory = new HealthMemory(40, REGISTER);
        var verdict = BACKEND.checkHealth(node("Requesting_2024-01-23 04:29:40", REGISTER, "40"), NOW, memory);
        assertThat(verdict).isEqualTo(new HealthVerdict(true, false, Optional.empty(), memory));
    }

    @Test
    void anExpiredHandshakeDoesNotMatterWhileAllocatableIsPositive() {
        var memory = new HealthMemory(40, REGISTER);
        var verdict = BACKEND.checkHealth(node("Requesting_2024-01-23 03:00:00", REGISTER, "40"), NOW, memory);
        assertThat(verdict).isEqualTo(new HealthVerdict(true, false, Optional.empty(), memory));
    }

    @Test
    void aChangedRegisterValueRefreshes() {
        var memory = new HealthMemory(40, REGISTER);
        String changed = REGISTER.replace("GPU-a", "GPU-b");
        var verdict = BACKEND.checkHealth(node("Requesting_2024-01-23 04:29:40", changed, "40"), NOW, memory);
        assertThat(verdict).isEqualTo(new HealthVerdict(true, true, Optional.empty(), new HealthMemory(40, changed)));
    }

    @Test
    void aChangedCountRefreshesAndIsHealthy() {
        var memory = new HealthMemory(40, REGISTER);
        var verdict = BACKEND.checkHealth(node("Requesting_2024-01-23 04:29:40", REGISTER, "30"), NOW, memory);
        assertThat(verdict).isEqualTo(new HealthVerdict(true, true, Optional.empty(), new HealthMemory(30, REGISTER)));
    }

    @Test
    void aCountThatDropsToZeroIsUnhealthyAndWritesNothing() {
        var memory = new HealthMemory(40, REGISTER);
        var verdict = BACKEND.checkHealth(node("Reported_2024-01-23 04:29:40", REGISTER, "0"), NOW, memory);
        assertThat(verdict).isEqualTo(new HealthVerdict(false, true, Optional.empty(), new HealthMemory(0, REGISTER)));
    }

    @Test
    void aMissingCountAfterAPositiveOneIsUnhealthy() {
        var memory = new HealthMemory(40, REGISTER);
        var verdict = BACKEND.checkHealth(node("Requesting_2024-01-23 04:29:40", REGISTER, null), NOW, memory);
        assertThat(verdict.healthy()).isFalse();
        assertThat(verdict.memory()).isEqualTo(new HealthMemory(0, REGISTER));
    }

    @Test
    void withZeroCountAllAlongTheSharedCheckDecides() {
        var expired =
                BACKEND.checkHealth(node("Requesting_2024-01-23 04:29:00", REGISTER, "0"), NOW, HealthMemory.NONE);
        assertThat(expired).isEqualTo(new HealthVerdict(false, false, Optional.empty(), HealthMemory.NONE));
        var pending =
                BACKEND.checkHealth(node("Requesting_2024-01-23 04:29:30", REGISTER, "0"), NOW, HealthMemory.NONE);
        assertThat(pending).isEqualTo(new HealthVerdict(true, false, Optional.empty(), HealthMemory.NONE));
        var answered = BACKEND.checkHealth(node("Reported_2024-01-23 04:29:30", null, null), NOW, HealthMemory.NONE);
        assertThat(answered).isEqualTo(new HealthVerdict(true, true, Optional.of(REQUESTED_NOW), HealthMemory.NONE));
    }

    @Test
    void theHandshakeKeyHasNoVendorSuffix() {
        var suffixed = KubeFixtures.node(
                "gpu-1", Map.of("hami.io/node-handshake-nvidia", "Requesting_2024-01-23 04:29:00"), Map.of(), Map.of());
        assertThat(BACKEND.checkHealth(suffixed, NOW, HealthMemory.NONE).handshakeToWrite())
                .contains(REQUESTED_NOW);
    }
}
