package io.hami.nativebind.cndev;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.nativebind.LibraryNotFoundException;
import io.hami.nativebind.MockLibrary;
import io.hami.nativebind.SymbolNotFoundException;
import io.hami.nativebind.VendorStatusException;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class CndevTest {

    static final String LIB = "libcndev.so";
    static final String STATE = "cndev-state.json";
    static final long GIB = 1L << 30;
    // the second UUID fills all 37 bytes, so the library returns it without a terminating NUL
    static final String DEVICES = """
            {"driverVersion": "5.10.22", "devices": [
              {"uuid": "4b7f3c2a-1d5e-4f60-8a9b-000000000000", "name": "MLU370-X8", "memoryMiB": 24576, "usedMiB": 512,
               "numaNode": 0, "pciBusId": "0000:3b:00.0", "minor": 0, "healthy": true, "pciDeviceId": 880},
              {"uuid": "4b7f3c2a-1d5e-4f60-8a9b-0000000000011", "name": "MLU590", "memoryMiB": 81920,
               "numaNode": 1, "pciBusId": "0002:af:01.2", "minor": 5, "healthy": true, "pciDeviceId": 1424}
            ]}""";

    @TempDir
    Path dir;

    MockLibrary mock;
    Cndev cndev;

    @BeforeEach
    void open() {
        mock = MockLibrary.install(dir, "cambricon", DEVICES, LIB);
        cndev = Cndev.open(mock.path(LIB));
    }

    @AfterEach
    void close() {
        cndev.close();
    }

    @Test
    void listsConfiguredDevicesWithEveryField() {
        assertThat(cndev.driverVersion()).isEqualTo("5.10.22");
        assertThat(cndev.devices())
                .containsExactly(
                        new CndevDevice(
                                0,
                                0,
                                "4b7f3c2a-1d5e-4f60-8a9b-000000000000",
                                "MLU370-X8",
                                24576,
                                512,
                                new CndevPciInfo(0, 0x3b, 0, 0, 0xcabc, 880, 0),
                                0,
                                0),
                        new CndevDevice(
                                1,
                                1,
                                "4b7f3c2a-1d5e-4f60-8a9b-0000000000011",
                                "MLU590",
                                81920,
                                0,
                                new CndevPciInfo(2, 0xaf, 1, 2, 0xcabc, 1424, 0),
                                1,
                                5));
        assertThat(cndev.device(1).pci().busId()).isEqualTo("0002:af:01.2");
    }

    @Test
    void mapsEveryInjectedErrorToAnExceptionWithCndevText() {
        for (int code = 1; code <= 19; code++) {
            mock.control("{\"failures\": [{\"function\": \"cndevGetMemoryUsageV2\", \"code\": " + code + "}]}");
            int expected = code;
            assertThatThrownBy(() -> cndev.device(0)).isInstanceOfSatisfying(VendorStatusException.class, e -> {
                assertThat(e.code()).isEqualTo(expected);
                assertThat(e.function()).isEqualTo("cndevGetMemoryUsageV2");
                assertThat(e.vendorMessage()).isNotBlank();
                assertThat(e.getMessage()).startsWith("CNDev cndevGetMemoryUsageV2 failed with " + expected + ": ");
            });
        }
        mock.control("{\"failures\": [{\"function\": \"cndevGetDeviceCount\", \"code\": 18}]}");
        assertThatThrownBy(cndev::deviceCount).hasMessageEndingWith("Device in problem");
        mock.control("{\"failures\": [{\"function\": \"cndevGetDeviceCount\", \"code\": 19}]}");
        assertThatThrownBy(cndev::deviceCount).hasMessageEndingWith("Cndev_ERROR not found!");
    }

    @Test
    void pollsHealthThatIsFlippedWhileRunning() {
        assertThat(cndev.health(1)).isEqualTo(new CndevHealth(true, Cndev.DEVICE_GOOD, Cndev.DRIVER_RUNNING));
        assertThat(cndev.health(1).usable()).isTrue();
        mock.control("{\"unhealthy\": [1]}");
        assertThat(cndev.health(1).usable()).isFalse();
        assertThat(cndev.health(1).healthy()).isFalse();
        assertThat(cndev.health(0).usable()).isTrue();
        mock.control("{}");
        assertThat(cndev.health(1).usable()).isTrue();
    }

    @Test
    void initFailsAndLostDevicesAnswerInProblem() {
        mock.control("{\"lost\": [0]}");
        assertThatThrownBy(() -> cndev.device(0))
                .isInstanceOfSatisfying(
                        VendorStatusException.class, e -> assertThat(e.code()).isEqualTo(18));
        assertThat(cndev.device(1).name()).isEqualTo("MLU590");
        cndev.close();
        mock.control("{\"initError\": 1}");
        assertThatThrownBy(() -> Cndev.open(mock.path(LIB))).isInstanceOfSatisfying(VendorStatusException.class, e -> {
            assertThat(e.code()).isEqualTo(1);
            assertThat(e.vendorMessage()).isEqualTo("No driver");
        });
        mock.control("{}");
        cndev = Cndev.open(mock.path(LIB));
    }

    @Test
    void createsAndDestroysSmluInstancesAndTheMockAccountsForThem() {
        int profile = cndev.createSmluProfile(0, 50, 8 * GIB);
        assertThat(cndev.smluProfiles(0)).singleElement().satisfies(p -> {
            assertThat(p.profileId()).isEqualTo(profile);
            assertThat(p.mluQuota()).isEqualTo(50);
            assertThat(p.memoryBytes()).isEqualTo(8 * GIB);
            assertThat(p.totalCapacity()).isEqualTo(2);
            assertThat(p.remainCapacity()).isEqualTo(2);
        });

        int first = cndev.createSmluInstance(0, profile, "pod-a");
        int second = cndev.createSmluInstance(0, profile, "");
        assertThatThrownBy(() -> cndev.createSmluInstance(0, profile, "pod-c"))
                .isInstanceOfSatisfying(
                        VendorStatusException.class,
                        e -> assertThat(e.vendorMessage()).isEqualTo("Insufficient space"));
        assertThat(cndev.smluInstance(first)).satisfies(i -> {
            assertThat(i.profileId()).isEqualTo(profile);
            assertThat(i.instanceName()).isEqualTo("pod-a");
            assertThat(i.devNodeName()).isEqualTo("/dev/cambricon-caps/cap_dev0_mi" + i.instanceId());
            assertThat(i.mluQuota()).isEqualTo(50);
            assertThat(i.memoryBytes()).isEqualTo(8 * GIB);
        });
        assertThat(cndev.smluInstances(0)).hasSize(2);
        assertThat(cndev.smluInstances(1)).isEmpty();
        assertThat(cndev.smluProfiles(0).getFirst().remainCapacity()).isZero();

        JsonNode card = mock.state(STATE).get("devices").get(0);
        assertThat(card.get("allocatedMluQuota").asInt()).isEqualTo(100);
        assertThat(card.get("allocatedMemoryBytes").asLong()).isEqualTo(16 * GIB);
        assertThat(card.get("instances")).hasSize(2);

        assertThatThrownBy(() -> cndev.destroySmluProfile(0, profile))
                .isInstanceOfSatisfying(
                        VendorStatusException.class,
                        e -> assertThat(e.vendorMessage()).isEqualTo("Resource in use"));
        cndev.destroySmluInstance(first);
        cndev.destroySmluInstance(second);
        cndev.destroySmluProfile(0, profile);
        assertThat(cndev.smluInstances(0)).isEmpty();
        card = mock.state(STATE).get("devices").get(0);
        assertThat(card.get("allocatedMemoryBytes").asLong()).isZero();
        assertThat(card.get("profiles")).isEmpty();
    }

    @Test
    void listsMoreInstancesThanTheFirstBufferHolds() {
        int profile = cndev.createSmluProfile(1, 10, GIB);
        for (int i = 0; i < 10; i++) {
            cndev.createSmluInstance(1, profile, "i" + i);
        }
        assertThat(cndev.smluInstances(1))
                .extracting(CndevSmluInstance::instanceName)
                .containsExactlyInAnyOrder("i0", "i1", "i2", "i3", "i4", "i5", "i6", "i7", "i8", "i9");
        assertThat(mock.state(STATE)
                        .get("devices")
                        .get(1)
                        .get("allocatedMluQuota")
                        .asInt())
                .isEqualTo(100);
    }

    @Test
    void aDriverWithoutSmluNamesTheMissingFunction(@TempDir Path legacyDir) {
        MockLibrary legacy = MockLibrary.install(legacyDir, "legacy/cambricon", DEVICES, LIB);
        try (Cndev old = Cndev.open(legacy.path(LIB))) {
            assertThat(old.deviceCount()).isEqualTo(2);
            assertThatThrownBy(() -> old.createSmluProfile(0, 50, GIB))
                    .isInstanceOf(SymbolNotFoundException.class)
                    .hasMessageContaining("cndevCreateSMluProfileInfo")
                    .hasMessageContaining("CNDev library " + legacy.path(LIB));
        }
    }

    @Test
    void aMissingLibraryIsReportedByName() {
        assertThatThrownBy(() -> Cndev.open(dir.resolve("none").resolve(LIB)))
                .isInstanceOf(LibraryNotFoundException.class)
                .hasMessageStartingWith("CNDev library " + dir.resolve("none").resolve(LIB) + " not found");
    }
}
