package io.hami.nativebind.rocm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.nativebind.LibraryNotFoundException;
import io.hami.nativebind.MockLibrary;
import io.hami.nativebind.SymbolNotFoundException;
import io.hami.nativebind.VendorStatusException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RocmSmiTest {

    static final String LIB = "librocm_smi64.so.2";
    static final String DEVICES = """
            {"driverVersion": "6.3.15-V1.9.1", "devices": [
              {"uuid": "DCU-6c8a1f4e2b9d0001", "name": "K100_AI", "memoryMiB": 65536, "usedMiB": 100, "numaNode": 0,
               "pciBusId": "0000:43:00.0", "minor": 128, "healthy": true, "pciDeviceId": 25104, "uniqueId": 4660,
               "busyPercent": 37},
              {"uuid": "DCU-6c8a1f4e2b9d0002", "name": "Z100L", "memoryMiB": 32768, "numaNode": -1,
               "pciBusId": "0001:c3:1f.7", "minor": 129, "healthy": true, "pciDeviceId": 21943, "uniqueId": 4661}
            ]}""";

    @TempDir
    Path dir;

    MockLibrary mock;
    RocmSmi smi;

    @BeforeEach
    void open() {
        mock = MockLibrary.install(dir, "hygon", DEVICES, LIB);
        smi = RocmSmi.open(mock.path(LIB));
    }

    @AfterEach
    void close() {
        smi.close();
    }

    @Test
    void listsConfiguredDevicesWithEveryField() {
        assertThat(smi.driverVersion()).isEqualTo("6.3.15-V1.9.1");
        assertThat(smi.devices())
                .containsExactly(
                        new RocmDevice(
                                0,
                                new RocmDevice.Identity("DCU-6c8a1f4e2b9d0001", "K100_AI", 0x6210, 4660),
                                new RocmDevice.Memory(65536L << 20, 100L << 20),
                                new RocmDevice.Location("0000:43:00.0", 0, 128)),
                        new RocmDevice(
                                1,
                                new RocmDevice.Identity("DCU-6c8a1f4e2b9d0002", "Z100L", 0x55b7, 4661),
                                new RocmDevice.Memory(32768L << 20, 0),
                                new RocmDevice.Location("0001:C3:1F.7", -1, 129)));
        assertThat(smi.busyPercent(0)).isEqualTo(37);
    }

    @Test
    void mapsEveryInjectedErrorToAnExceptionWithTheStatusString() {
        for (int code :
                IntStream.concat(IntStream.rangeClosed(1, 19), IntStream.of(-1)).toArray()) {
            mock.control("{\"failures\": [{\"function\": \"rsmi_dev_pci_id_get\", \"code\": " + code + "}]}");
            assertThatThrownBy(() -> smi.device(0)).isInstanceOfSatisfying(VendorStatusException.class, e -> {
                assertThat(e.code()).isEqualTo(code);
                assertThat(e.vendorMessage()).startsWith("RSMI_STATUS_");
            });
        }
        mock.control("{\"failures\": [{\"function\": \"rsmi_num_monitor_devices\", \"code\": 16}]}");
        assertThatThrownBy(smi::deviceCount)
                .hasMessageContaining("RSMI_STATUS_BUSY: A resource or mutex could not be acquired");
    }

    @Test
    void seesEventsAndHealthInjectedWhileRunning() {
        try (RocmEventWatch events = smi.watch(RocmSmi.EVENT_VMFAULT, RocmSmi.EVENT_GPU_PRE_RESET)) {
            assertThat(events.await(Duration.ofMillis(50))).isEmpty();
            mock.control("{\"events\": [{\"device\": 1, \"event\": 1, \"message\": \"vm fault at 0x1000\"},"
                    + " {\"device\": 0, \"event\": 2, \"message\": \"not watched\"}]}");
            assertThat(events.await(Duration.ofSeconds(5)))
                    .containsExactly(new RocmEvent(1, RocmSmi.EVENT_VMFAULT, "vm fault at 0x1000"));
            mock.control("{\"unhealthy\": [0]}");
            assertThat(events.await(Duration.ofSeconds(5)))
                    .containsExactly(new RocmEvent(0, RocmSmi.EVENT_GPU_PRE_RESET, "device 0 unhealthy"));
        }
    }

    @Test
    void initFailsAndLostDevicesAnswerFileError() {
        mock.control("{\"lost\": [0]}");
        assertThatThrownBy(() -> smi.device(0))
                .isInstanceOfSatisfying(
                        VendorStatusException.class, e -> assertThat(e.code()).isEqualTo(3));
        assertThat(smi.device(1).identity().name()).isEqualTo("Z100L");
        smi.close();
        mock.control("{\"initError\": 8}");
        assertThatThrownBy(() -> RocmSmi.open(mock.path(LIB)))
                .isInstanceOfSatisfying(
                        VendorStatusException.class,
                        e -> assertThat(e.vendorMessage()).startsWith("RSMI_STATUS_INIT_ERROR"));
        mock.control("{}");
        smi = RocmSmi.open(mock.path(LIB));
    }

    @Test
    void aLibraryWithoutAFunctionNamesIt(@TempDir Path legacyDir) {
        MockLibrary legacy = MockLibrary.install(legacyDir, "legacy/hygon", DEVICES, LIB);
        try (RocmSmi old = RocmSmi.open(legacy.path(LIB))) {
            assertThat(old.deviceCount()).isEqualTo(2);
            assertThatThrownBy(() -> old.busyPercent(0))
                    .isInstanceOf(SymbolNotFoundException.class)
                    .hasMessageContaining("rsmi_dev_busy_percent_get")
                    .hasMessageContaining("ROCm SMI library " + legacy.path(LIB));
        }
    }

    @Test
    void aMissingLibraryIsReportedByName() {
        assertThatThrownBy(() -> RocmSmi.open(dir.resolve("none").resolve(LIB)))
                .isInstanceOf(LibraryNotFoundException.class)
                .hasMessageStartingWith(
                        "ROCm SMI library " + dir.resolve("none").resolve(LIB) + " not found");
    }
}
