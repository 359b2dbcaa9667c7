package io.hami.backend.cambricon;

import static io.hami.protocol.testing.KubeFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.health.HealthMemory;
import io.hami.protocol.health.HealthVerdict;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.ResourceNames;
import io.hami.protocol.spi.VendorKeys;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CambriconBackendTest {
    private final CambriconBackend backend = new CambriconBackend(CambriconConfig.DEFAULTS);

    @Test
    void isFoundByServiceLoader() {
        assertThat(DeviceBackends.load(DeviceConfig.DEFAULTS).byVendor("MLU"))
                .get()
                .isInstanceOf(CambriconBackend.class);
    }

    @Test
    void ownsTheKeysOfDecisionD1() {
        assertThat(backend.vendor()).isEqualTo("MLU");
        assertThat(backend.keys())
                .isEqualTo(new VendorKeys(
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        "hami.io/cambricon-mlu-devices-to-allocate",
                        "hami.io/cambricon-mlu-devices-allocated"));
    }

    @Test
    void readsTheConfiguredResourceNames() {
        assertThat(backend.resources())
                .isEqualTo(new ResourceNames(
                        "cambricon.com/vmlu",
                        "cambricon.com/mlu.smlu.vmemory",
                        Optional.empty(),
                        "cambricon.com/mlu.smlu.vcore"));
    }

    @Test
    void withoutAHandshakeANodeIsAlwaysHealthyAndRefreshed() {
        // the older protocol doc's MLU handshake example: Cambricon has no handshake, so it means nothing
        var stale = node("mlu-1", Map.of("hami.io/node-handshake-mlu", "Requesting_2000-01-01 00:00:00"));
        var verdict = backend.checkHealth(stale, Instant.parse("2024-01-01T00:00:00Z"), new HealthMemory(3, "x"));
        assertThat(verdict).isEqualTo(new HealthVerdict(true, true, Optional.empty(), HealthMemory.NONE));
    }
}
