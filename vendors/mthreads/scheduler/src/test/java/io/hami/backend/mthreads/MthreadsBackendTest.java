package io.hami.backend.mthreads;

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

class MthreadsBackendTest {
    private final MthreadsBackend backend = new MthreadsBackend(MthreadsConfig.DEFAULTS);

    @Test
    void isFoundByServiceLoader() {
        assertThat(DeviceBackends.load(DeviceConfig.DEFAULTS).byVendor("Mthreads"))
                .get()
                .isInstanceOf(MthreadsBackend.class);
    }

    @Test
    void ownsTheKeysOfDecisionD1() {
        assertThat(backend.vendor()).isEqualTo("Mthreads");
        assertThat(backend.keys())
                .isEqualTo(new VendorKeys(
                        Optional.empty(),
                        Optional.empty(),
                        Optional.empty(),
                        "hami.io/mthreads-vgpu-devices-to-allocate",
                        "hami.io/mthreads-vgpu-devices-allocated"));
    }

    @Test
    void readsTheConfiguredResourceNames() {
        assertThat(backend.resources())
                .isEqualTo(new ResourceNames(
                        "mthreads.com/vgpu", "mthreads.com/sgpu-memory", Optional.empty(), "mthreads.com/sgpu-core"));
    }

    @Test
    void withoutAHandshakeANodeIsAlwaysHealthyAndRefreshed() {
        var verdict =
                backend.checkHealth(node("mt-1", Map.of()), Instant.parse("2024-01-01T00:00:00Z"), HealthMemory.NONE);
        assertThat(verdict).isEqualTo(new HealthVerdict(true, true, Optional.empty(), HealthMemory.NONE));
    }
}
