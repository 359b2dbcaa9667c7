package io.hami.backend.hygon;

import static io.hami.protocol.testing.KubeFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.Discovery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** docs/upstream.md#discovery with the HCU key of design D1 (docs/design.md#d1): the legacy colon form. */
class HygonDiscoveryTest {
    private static final String KEY = "hami.io/node-hcu-register";
    private final HygonBackend backend = new HygonBackend(HygonConfig.DEFAULTS);

    @Test
    void nineFieldEntriesAreFound() {
        String register = "HCU-a,10,65536,100,HCU-K100,0,true,0,hami-core:HCU-b,10,65536,100,HCU-K100,1,false,1,:";
        assertThat(backend.discover(node("h1", Map.of(KEY, register))))
                .isEqualTo(new Discovery.Found(List.of(
                        new DeviceInfo("HCU-a", 0, 10, 65536, 100, "HCU-K100", 0, "hami-core", true),
                        new DeviceInfo("HCU-b", 1, 10, 65536, 100, "HCU-K100", 1, "", false))));
    }

    @Test
    void sevenFieldEntriesAreFound() {
        assertThat(backend.discover(node("h1", Map.of(KEY, "HCU-a,4,16384,100,Hygon HCU,0,true:"))))
                .isEqualTo(new Discovery.Found(
                        List.of(new DeviceInfo("HCU-a", 0, 4, 16384, 100, "Hygon HCU", 0, "hami-core", true))));
    }

    @Test
    void aMissingAnnotationIsAbsent() {
        assertThat(backend.discover(node("h1", Map.of("hami.io/node-dcu-register", "DCU-a,4,16384,100,DCU,0,true:"))))
                .isEqualTo(new Discovery.Absent("no annotation hami.io/node-hcu-register on node h1"));
    }

    @Test
    void noDeviceIsAbsent() {
        assertThat(backend.discover(node("h1", Map.of(KEY, "::")))).isInstanceOf(Discovery.Absent.class);
    }

    @Test
    void oneMalformedDeviceMakesTheValueInvalid() {
        var result =
                backend.discover(node("h1", Map.of(KEY, "HCU-a,4,16384,100,HCU,0,true:HCU-b,4,12x,100,HCU,0,true:")));
        assertThat(result).isInstanceOf(Discovery.Invalid.class);
        assertThat(((Discovery.Invalid) result).reason()).startsWith("hami.io/node-hcu-register on node h1: ");
    }

    @Test
    void devicesWhoseTypeLacksHcuAreNotHygons() {
        var result = backend.discover(
                node("h1", Map.of(KEY, "DCU-a,4,16384,100,DCU-Z100,0,true:hcu-b,4,16384,100,hcu,0,true:")));
        assertThat(result)
                .isEqualTo(new Discovery.Found(
                        List.of(new DeviceInfo("hcu-b", 0, 4, 16384, 100, "hcu", 0, "hami-core", true))));
    }
}
