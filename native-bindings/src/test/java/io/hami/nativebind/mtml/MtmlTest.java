package io.hami.nativebind.mtml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.nativebind.LibraryNotFoundException;
import io.hami.nativebind.MockLibrary;
import io.hami.nativebind.SymbolNotFoundException;
import io.hami.nativebind.VendorStatusException;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MtmlTest {

    static final String LIB = "libmtml.so.2";
    static final String DEVICES = """
            {"driverVersion": "2.7.0", "devices": [
              {"uuid": "5d2c7e10-93ab-4c4e-b1f2-000000000000", "name": "MTT S4000", "memoryMiB": 49152, "usedMiB": 2048,
               "numaNode": 0, "pciBusId": "0000:1a:00.0", "minor": 0, "healthy": true, "pciDeviceId": 50470613},
              {"uuid": "5d2c7e10-93ab-4c4e-b1f2-000000000001", "name": "MTT S80", "memoryMiB": 16384,
               "numaNode": 3, "pciBusId": "0000:9c:00.0", "minor": 4, "healthy": true, "pciSubsystemId": 7}
            ]}""";

    @TempDir
    Path dir;

    MockLibrary mock;
    Mtml mtml;

    @BeforeEach
    void open() {
        mock = MockLibrary.install(dir, "mthreads", DEVICES, LIB);
        mtml = Mtml.open(mock.path(LIB));
    }

    @AfterEach
    void close() {
        mtml.close();
    }

    @Test
    void listsConfiguredDevicesWithEveryField() {
        assertThat(mtml.driverVersion()).isEqualTo("2.7.0");
        assertThat(mtml.devices())
                .containsExactly(
                        new MtmlDevice(
                                0,
                                "5d2c7e10-93ab-4c4e-b1f2-000000000000",
                                "MTT S4000",
                                49152L << 20,
                                2048L << 20,
                                new MtmlPci("00000000:1A:00.0", 0, 0x1a, 0, 50470613, 0),
                                "/dev/mtgpu.0",
                                0),
                        new MtmlDevice(
                                1,
                                "5d2c7e10-93ab-4c4e-b1f2-000000000001",
                                "MTT S80",
                                16384L << 20,
                                0,
                                new MtmlPci("00000000:9C:00.0", 0, 0x9c, 0, 0x03011ED5, 7),
                                "/dev/mtgpu.4",
                                3));
    }

    @Test
    void mapsEveryInjectedErrorToAnExceptionWithMtmlText() {
        for (int code : IntStream.concat(IntStream.rangeClosed(1, 12), IntStream.of(999))
                .toArray()) {
            mock.control("{\"failures\": [{\"function\": \"mtmlMemoryGetTotal\", \"code\": " + code + "}]}");
            assertThatThrownBy(() -> mtml.device(1)).isInstanceOfSatisfying(VendorStatusException.class, e -> {
                assertThat(e.code()).isEqualTo(code);
                assertThat(e.function()).isEqualTo("mtmlMemoryGetTotal");
                assertThat(e.vendorMessage()).isNotBlank().isNotEqualTo("Success");
            });
        }
        mock.control("{\"failures\": [{\"function\": \"mtmlLibraryCountDevice\", \"code\": 12}]}");
        assertThatThrownBy(mtml::deviceCount)
                .hasMessage("MTML mtmlLibraryCountDevice failed with 12: Resource is busy");
    }

    @Test
    void pollsHealthThatIsFlippedWhileRunning() {
        assertThat(mtml.healthy(0)).isTrue();
        mock.control("{\"unhealthy\": [0]}");
        assertThat(mtml.healthy(0)).isFalse();
        assertThat(mtml.healthy(1)).isTrue();
    }

    @Test
    void initFailsAndLostDevicesAnswerDriverFailure() {
        mock.control("{\"lost\": [1]}");
        assertThatThrownBy(() -> mtml.device(1))
                .isInstanceOfSatisfying(
                        VendorStatusException.class,
                        e -> assertThat(e.vendorMessage()).isEqualTo("Driver failure"));
        assertThat(mtml.device(0).name()).isEqualTo("MTT S4000");
        mtml.close();
        mock.control("{\"initError\": 1}");
        assertThatThrownBy(() -> Mtml.open(mock.path(LIB)))
                .isInstanceOfSatisfying(
                        VendorStatusException.class,
                        e -> assertThat(e.vendorMessage()).isEqualTo("Driver not loaded"));
        mock.control("{}");
        mtml = Mtml.open(mock.path(LIB));
    }

    @Test
    void aDriverWithoutAFunctionNamesIt(@TempDir Path legacyDir) {
        MockLibrary legacy = MockLibrary.install(legacyDir, "legacy/mthreads", DEVICES, LIB);
        try (Mtml old = Mtml.open(legacy.path(LIB))) {
            assertThat(old.healthy(0)).isTrue();
            assertThatThrownBy(old::devices)
                    .isInstanceOf(SymbolNotFoundException.class)
                    .hasMessageContaining("mtmlDeviceGetPciInfo")
                    .hasMessageContaining(legacy.path(LIB).toString());
        }
    }

    @Test
    void aMissingLibraryIsReportedByName() {
        assertThatThrownBy(() -> Mtml.open(dir.resolve("none").resolve(LIB)))
                .isInstanceOf(LibraryNotFoundException.class)
                .hasMessageStartingWith("MTML library " + dir.resolve("none").resolve(LIB) + " not found");
    }
}
