package io.hami.backend.hygon;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.ResourceNames;
import io.hami.protocol.spi.VendorKeys;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HygonBackendTest {
    private final HygonBackend backend = new HygonBackend(HygonConfig.DEFAULTS);

    @Test
    void isFoundByServiceLoader() {
        assertThat(DeviceBackends.load(DeviceConfig.DEFAULTS).byVendor("HCU"))
                .get()
                .isInstanceOf(HygonBackend.class);
    }

    @Test
    void ownsTheHcuKeysOfDecisionD1() {
        assertThat(backend.vendor()).isEqualTo("HCU");
        assertThat(backend.keys())
                .isEqualTo(new VendorKeys(
                        Optional.of("hami.io/node-hcu-register"),
                        Optional.of(RegisterCodec.COLON),
                        Optional.of("hami.io/node-handshake-hcu"),
                        "hami.io/hcu-devices-to-allocate",
                        "hami.io/hcu-devices-allocated"));
    }

    @Test
    void readsTheConfiguredHcuResourceNames() {
        assertThat(backend.resources())
                .isEqualTo(new ResourceNames(
                        "hygon.com/hcunum", "hygon.com/hcumem", Optional.empty(), "hygon.com/hcucores"));
    }

    @Test
    void allFourVendorsAreLoadedInKeywordOrder() {
        assertThat(DeviceBackends.load(DeviceConfig.DEFAULTS).all())
                .extracting(b -> b.vendor())
                .contains("HCU");
    }
}
