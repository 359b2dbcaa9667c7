package io.hami.nativebind.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.nativebind.LibraryNotFoundException;
import io.hami.nativebind.MockLibrary;
import io.hami.nativebind.NativeLibrary;
import io.hami.nativebind.NativeStrings;
import io.hami.nativebind.SymbolNotFoundException;
import io.hami.nativebind.VendorStatusException;
import io.hami.nativebind.nvml.raw.nvmlMemory_v2_t;
import io.hami.nativebind.nvml.raw.nvml_h;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NvmlTest {

    static final String LIB = "libnvidia-ml.so.1";
    static final String DEVICES = """
            {"driverVersion": "550.54.15", "cudaDriverVersion": 12040, "devices": [
              {"uuid": "GPU-00000000-0000-0000-0000-000000000000", "name": "NVIDIA A100-SXM4-40GB", "memoryMiB": 40960,
               "usedMiB": 1024, "numaNode": 1, "pciBusId": "00000000:07:00.0", "minor": 3, "healthy": true,
               "pciDeviceId": 548409566, "pciSubsystemId": 330174686, "computeCapabilityMajor": 8, "computeCapabilityMinor": 0},
              {"uuid": "GPU-11111111-1111-1111-1111-111111111111", "name": "NVIDIA H100 80GB HBM3", "memoryMiB": 81559,
               "numaNode": -1, "pciBusId": "00000001:8A:00.0", "minor": 7, "healthy": true,
               "computeCapabilityMajor": 9, "computeCapabilityMinor": 0}
            ]}""";

    @TempDir
    Path dir;

    MockLibrary mock;
    Nvml nvml;

    @BeforeEach
    void open() {
        mock = MockLibrary.install(dir, "nvidia", DEVICES, LIB);
        nvml = Nvml.open(mock.path(LIB));
    }

    @AfterEach
    void close() {
        nvml.close();
    }

    @Test
    void listsConfiguredDevicesWithEveryField() {
        assertThat(nvml.driverVersion()).isEqualTo("550.54.15");
        assertThat(nvml.cudaDriverVersion()).isEqualTo(12040);
        assertThat(nvml.devices())
                .containsExactly(
                        new NvmlDevice(
                                0,
                                "GPU-00000000-0000-0000-0000-000000000000",
                                "NVIDIA A100-SXM4-40GB",
                                Optional.of(new NvmlMemory(40960L << 20, 0, 39936L << 20, 1024L << 20)),
                                new NvmlPciInfo("00000000:07:00.0", 0, 7, 0, 0x20B010DE, 0x13AE10DE),
                                3,
                                1,
                                8,
                                0),
                        new NvmlDevice(
                                1,
                                "GPU-11111111-1111-1111-1111-111111111111",
                                "NVIDIA H100 80GB HBM3",
                                Optional.of(new NvmlMemory(81559L << 20, 0, 81559L << 20, 0)),
                                new NvmlPciInfo("00000001:8A:00.0", 1, 0x8A, 0, 0x20B010DE, 0),
                                7,
                                -1,
                                9,
                                0));
    }

    @Test
    void memoryV2IsCalledWithItsStructVersion() {
        // the mock answers ARGUMENT_VERSION_MISMATCH unless version is nvmlMemory_v2, as NVML does
        var raw = new nvml_h(NativeLibrary.open("NVML", mock.path(LIB)));
        try (Arena arena = Arena.ofConfined()) {
            var handle = arena.allocate(ValueLayout.ADDRESS);
            assertThat(raw.nvmlDeviceGetHandleByIndex_v2(0, handle)).isZero();
            var memory = nvmlMemory_v2_t.allocate(arena);
            assertThat(raw.nvmlDeviceGetMemoryInfo_v2(handle.get(ValueLayout.ADDRESS, 0), memory))
                    .isEqualTo(nvml_h.NVML_ERROR_ARGUMENT_VERSION_MISMATCH());
        }
        assertThat(nvml.memory(1).totalMiB()).isEqualTo(81559);
    }

    @Test
    void mapsEveryInjectedErrorToAnExceptionWithNvmlText() {
        var raw = new nvml_h(NativeLibrary.open("NVML", mock.path(LIB)));
        int[] codes = IntStream.concat(IntStream.rangeClosed(1, 30), IntStream.of(999))
                .toArray();
        for (int code : codes) {
            mock.control("{\"failures\": [{\"function\": \"nvmlDeviceGetUUID\", \"code\": " + code + "}]}");
            String text = NativeStrings.decodePointer(raw.nvmlErrorString(code), "");
            assertThatThrownBy(() -> nvml.device(0)).isInstanceOfSatisfying(VendorStatusException.class, e -> {
                assertThat(e.code()).isEqualTo(code);
                assertThat(e.function()).isEqualTo("nvmlDeviceGetUUID");
                assertThat(e.vendorMessage()).isEqualTo(text).isNotBlank();
                assertThat(e.getMessage()).contains("NVML", text);
            });
        }
        assertThat(NativeStrings.decodePointer(raw.nvmlErrorString(15), "")).isEqualTo("GPU is lost");
    }

    @Test
    void failsAGivenCallAfterNCalls() {
        mock.control(
                "{\"failures\": [{\"function\": \"nvmlDeviceGetCount_v2\", \"code\": 17, \"after\": 2, \"count\": 1}]}");
        assertThat(nvml.deviceCount()).isEqualTo(2);
        assertThat(nvml.deviceCount()).isEqualTo(2);
        assertThatThrownBy(nvml::deviceCount)
                .isInstanceOf(VendorStatusException.class)
                .hasMessageContaining("The operating system has blocked the request.");
        assertThat(nvml.deviceCount()).isEqualTo(2);
    }

    @Test
    void initFailsWithTheInjectedCode() {
        nvml.close();
        mock.control("{\"initError\": 9}");
        assertThatThrownBy(() -> Nvml.open(mock.path(LIB))).isInstanceOfSatisfying(VendorStatusException.class, e -> {
            assertThat(e.code()).isEqualTo(9);
            assertThat(e.vendorMessage()).isEqualTo("Driver Not Loaded");
        });
        mock.control("{}");
        nvml = Nvml.open(mock.path(LIB));
        assertThat(nvml.deviceCount()).isEqualTo(2);
    }

    @Test
    void aLostGpuAnswersGpuIsLost() {
        try (NvmlEventSet events = nvml.watch(Nvml.EVENT_XID_CRITICAL_ERROR)) {
            mock.control("{\"lost\": [1]}");
            assertThat(nvml.device(0).uuid()).startsWith("GPU-0000");
            assertThatThrownBy(() -> nvml.device(1))
                    .isInstanceOfSatisfying(
                            VendorStatusException.class,
                            e -> assertThat(e.code()).isEqualTo(Nvml.ERROR_GPU_IS_LOST));
            assertThatThrownBy(() -> events.await(Duration.ofSeconds(2)))
                    .isInstanceOfSatisfying(VendorStatusException.class, e -> {
                        assertThat(e.code()).isEqualTo(Nvml.ERROR_GPU_IS_LOST);
                        assertThat(e.function()).isEqualTo("nvmlEventSetWait_v2");
                    });
        }
    }

    @Test
    void seesXidAndHealthEventsInjectedWhileRunning() {
        try (NvmlEventSet events = nvml.watch(Nvml.EVENT_XID_CRITICAL_ERROR | Nvml.EVENT_DOUBLE_BIT_ECC)) {
            assertThat(events.unwatchedDevices()).isEmpty();
            assertThat(events.await(Duration.ofMillis(50))).isEmpty();

            mock.control("{\"events\": [{\"device\": 1, \"xid\": 79}]}");
            NvmlEvent xid = events.await(Duration.ofSeconds(5)).orElseThrow();
            assertThat(xid)
                    .isEqualTo(new NvmlEvent(
                            1,
                            "GPU-11111111-1111-1111-1111-111111111111",
                            Nvml.EVENT_XID_CRITICAL_ERROR,
                            79,
                            0xFFFFFFFF,
                            0xFFFFFFFF));
            assertThat(xid.isXid()).isTrue();

            // a device turning unhealthy raises one critical XID (48, double-bit ECC)
            mock.control("{\"events\": [{\"device\": 1, \"xid\": 79}], \"unhealthy\": [0]}");
            NvmlEvent health = events.await(Duration.ofSeconds(5)).orElseThrow();
            assertThat(health.deviceIndex()).isZero();
            assertThat(health.eventData()).isEqualTo(48);
            assertThat(events.await(Duration.ofMillis(50))).isEmpty();
        }
    }

    @Test
    void anOlderDriverWithoutMemoryV2FallsBackAndNamesTheMissingSymbol(@TempDir Path legacyDir) {
        MockLibrary legacy = MockLibrary.install(legacyDir, "legacy/nvidia", DEVICES, LIB);
        try (Nvml old = Nvml.open(legacy.path(LIB))) {
            assertThat(old.memory(0)).isEqualTo(new NvmlMemory(40960L << 20, 0, 39936L << 20, 1024L << 20));
            var raw = new nvml_h(NativeLibrary.open("NVML", legacy.path(LIB)));
            assertThatThrownBy(() -> raw.nvmlDeviceGetMemoryInfo_v2(MemorySegment.NULL, MemorySegment.NULL))
                    .isInstanceOfSatisfying(SymbolNotFoundException.class, e -> {
                        assertThat(e.symbol()).isEqualTo("nvmlDeviceGetMemoryInfo_v2");
                        assertThat(e.getMessage())
                                .contains(
                                        "nvmlDeviceGetMemoryInfo_v2",
                                        "NVML library",
                                        legacy.path(LIB).toString());
                    });
        }
    }

    @Test
    void aMissingLibraryIsReportedByNameNotAsALinkError() {
        Path missing = dir.resolve("absent").resolve(LIB);
        assertThatThrownBy(() -> Nvml.open(missing))
                .isInstanceOf(LibraryNotFoundException.class)
                .hasMessageStartingWith("NVML library " + missing + " not found: ");
    }

    @Test
    void twoCopiesInTwoFoldersHoldIndependentDevices(@TempDir Path other) {
        MockLibrary second = MockLibrary.install(other, "nvidia", """
                {"devices": [{"uuid": "GPU-22222222-2222-2222-2222-222222222222", "name": "Tesla T4", "memoryMiB": 15360}]}""", LIB);
        try (Nvml nvml2 = Nvml.open(second.path(LIB))) {
            second.control("{\"lost\": [0]}");
            assertThat(nvml2.deviceCount()).isEqualTo(1);
            assertThatThrownBy(() -> nvml2.device(0)).isInstanceOf(VendorStatusException.class);
            assertThat(nvml.devices())
                    .extracting(NvmlDevice::uuid)
                    .containsExactly(
                            "GPU-00000000-0000-0000-0000-000000000000", "GPU-11111111-1111-1111-1111-111111111111");
        }
    }

    @Test
    void aGpuWhoseMemoryIsNotSupportedHasNoMemoryButIsStillListed(@TempDir Path other) {
        MockLibrary second = MockLibrary.install(other, "nvidia", """
                {"devices": [{"uuid": "GPU-33333333-3333-3333-3333-333333333333", "name": "NVIDIA GH200", "memoryInfo": false},
                             {"uuid": "GPU-44444444-4444-4444-4444-444444444444", "name": "Tesla T4", "memoryMiB": 15360}]}""", LIB);
        try (Nvml nvml2 = Nvml.open(second.path(LIB))) {
            assertThat(nvml2.devices())
                    .extracting(NvmlDevice::memory)
                    .containsExactly(Optional.empty(), Optional.of(new NvmlMemory(15360L << 20, 0, 15360L << 20, 0)));
            assertThat(nvml2.memoryIfSupported(0)).isEmpty();
            assertThat(nvml2.memoryIfSupported(1)).isPresent();
            assertThatThrownBy(() -> nvml2.memory(0))
                    .isInstanceOfSatisfying(
                            VendorStatusException.class,
                            e -> assertThat(e.code()).isEqualTo(Nvml.ERROR_NOT_SUPPORTED));
        }
    }
}
