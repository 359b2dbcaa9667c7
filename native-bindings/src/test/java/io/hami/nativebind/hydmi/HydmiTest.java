package io.hami.nativebind.hydmi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.nativebind.LibraryNotFoundException;
import io.hami.nativebind.MockLibrary;
import io.hami.nativebind.VendorStatusException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class HydmiTest {

    static final String LIB = "libhydmi.so.1";
    static final String STATE = "hydmi-state.json";
    static final String DEVICES = """
            {"devices": [
              {"uuid": "DCU-1", "name": "K100_AI", "memoryMiB": 65536, "pciBusId": "0000:43:00.0", "computeUnits": 120},
              {"uuid": "DCU-2", "name": "Z100", "memoryMiB": 32768, "pciBusId": "0000:c3:00.0", "computeUnits": 60}
            ]}""";

    @TempDir
    Path dir;

    MockLibrary mock;
    Hydmi dmi;

    @BeforeEach
    void open() {
        mock = MockLibrary.install(dir, "hygon", DEVICES, LIB);
        dmi = Hydmi.open(mock.path(LIB));
    }

    @Test
    void listsConfiguredDevices() {
        assertThat(dmi.deviceCount()).isEqualTo(2);
        assertThat(dmi.device(1)).isEqualTo(new DmiDevice(1, "Z100", 60, 32768L << 20, 0));
        assertThat(dmi.remaining(0)).isEqualTo(new DmiRemaining(120, 65536L << 20));
        assertThat(dmi.maxVirtualDevicesPerDevice()).isEqualTo(4);
    }

    @Test
    void createsAndDestroysVirtualDevicesAndTheMockAccountsForThem() {
        List<VirtualDevice> created =
                dmi.createVirtualDevices(0, List.of(new VirtualDeviceSpec(30, 8192), new VirtualDeviceSpec(60, 16384)));
        assertThat(created)
                .containsExactly(
                        new VirtualDevice(0, 0, "vdev0", 30, 8192L << 20),
                        new VirtualDevice(1, 0, "vdev1", 60, 16384L << 20));
        List<VirtualDevice> other = dmi.createVirtualDevices(1, List.of(new VirtualDeviceSpec(60, 1024)));
        assertThat(other)
                .singleElement()
                .satisfies(v -> assertThat(v.deviceIndex()).isEqualTo(1));
        assertThat(dmi.remaining(0)).isEqualTo(new DmiRemaining(30, 40960L << 20));
        assertThat(dmi.device(0).usedMemoryBytes()).isEqualTo(24576L << 20);

        JsonNode state = mock.state(STATE);
        assertThat(state.get("devices").get(0).get("allocatedComputeUnits").asInt())
                .isEqualTo(90);
        assertThat(state.get("devices").get(0).get("allocatedMemoryMiB").asLong())
                .isEqualTo(24576);
        assertThat(state.get("virtualDevices")).hasSize(3);

        assertThatThrownBy(() -> dmi.createVirtualDevices(0, List.of(new VirtualDeviceSpec(31, 1))))
                .isInstanceOfSatisfying(VendorStatusException.class, e -> {
                    assertThat(e.code()).isEqualTo(11);
                    assertThat(e.vendorMessage()).isEqualTo("Out of resources");
                });

        dmi.destroyVirtualDevice(created.getFirst().id());
        assertThat(dmi.virtualDevices())
                .extracting(VirtualDevice::id)
                .containsExactly(1, other.getFirst().id());
        dmi.destroyVirtualDevices(0);
        assertThatThrownBy(() -> dmi.destroyVirtualDevices(0)).hasMessageContaining("Virtual device does not exist");
        assertThat(mock.state(STATE).get("virtualDevices")).hasSize(1);
    }

    @Test
    void mapsEveryInjectedErrorToAnExceptionWithHydmiText() {
        for (int code = 1; code <= 32; code++) {
            mock.control("{\"failures\": [{\"function\": \"dmiGetDeviceInfo\", \"code\": " + code + "}]}");
            int expected = code;
            assertThatThrownBy(() -> dmi.device(0)).isInstanceOfSatisfying(VendorStatusException.class, e -> {
                assertThat(e.code()).isEqualTo(expected);
                assertThat(e.vendorMessage()).isNotBlank().isNotEqualTo("Success");
            });
        }
        mock.control("{\"lost\": [1]}");
        assertThatThrownBy(() -> dmi.device(1))
                .hasMessage("hydmi dmiGetDeviceInfo failed with 5: System node does not exist");
    }

    @Test
    void theFirstCallFailsWithAnInjectedInitError(@TempDir Path fresh) {
        MockLibrary other = MockLibrary.install(fresh, "hygon", DEVICES, LIB);
        other.control("{\"initError\": 3}");
        Hydmi failing = Hydmi.open(other.path(LIB));
        assertThatThrownBy(failing::deviceCount).hasMessageEndingWith("Failed to open /dev/mkfd");
        other.control("{}");
        assertThat(failing.deviceCount()).isEqualTo(2);
    }

    @Test
    void aNodeWithoutHydmiIsReportedByName() {
        // the legacy Hygon folder ships ROCm SMI only, like a node without the vDCU package
        Path absent = MockLibrary.builtDir().resolve("legacy/hygon").resolve(LIB);
        assertThatThrownBy(() -> Hydmi.open(absent))
                .isInstanceOf(LibraryNotFoundException.class)
                .hasMessageStartingWith("hydmi library " + absent + " not found");
    }
}
