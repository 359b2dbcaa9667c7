package io.hami.nativebind.nvml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.nativebind.MockLibrary;
import io.hami.nativebind.NativeLibrary;
import io.hami.nativebind.VendorStatusException;
import io.hami.nativebind.nvml.raw.nvmlPciInfo_t;
import io.hami.nativebind.nvml.raw.nvml_h;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The topology calls (common ancestor, NVLink state, NVLink remote PCI info) against the NVML mock's {@code nvlinks}
 * and {@code p2pLevel}.
 */
class NvmlTopologyTest {

    static final String LIB = "libnvidia-ml.so.1";
    static final String A = "GPU-aaaaaaaa-0000-4000-8000-000000000000";
    static final String B = "GPU-aaaaaaaa-0000-4000-8000-000000000001";
    static final String C = "GPU-aaaaaaaa-0000-4000-8000-000000000002";
    static final String D = "GPU-aaaaaaaa-0000-4000-8000-000000000003";
    static final String B_BUS = "00000000:0F:00.0";
    /**
     * A and B: 12 NVLinks between them, both on NUMA 0; C on NUMA 0 with a PCIe switch towards A (from A's side
     * only) and 2 links to A that A does not list; D on NUMA 1, a PCIe card.
     */
    static final String DEVICES = """
            {"devices": [
              {"uuid": "%1$s", "numaNode": 0, "pciBusId": "00000000:07:00.0", "nvlinks": {"%2$s": 12},
               "p2pLevel": {"%3$s": "single"}},
              {"uuid": "%2$s", "numaNode": 0, "pciBusId": "00000000:0F:00.0", "nvlinks": {"%1$s": 12}},
              {"uuid": "%3$s", "numaNode": 0, "pciBusId": "00000000:17:00.0", "nvlinks": {"%1$s": 2}},
              {"uuid": "%4$s", "numaNode": 1, "pciBusId": "00000000:87:00.0"}
            ]}""".formatted(A, B, C, D);

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
        if (nvml != null) {
            nvml.close();
        }
    }

    @Test
    void theCommonAncestorIsTheConfiguredLevelElseNodeOrSystemByNuma() {
        assertThat(nvml.topologyCommonAncestor(0, 1)).isEqualTo(NvmlTopologyLevel.NODE);
        assertThat(nvml.topologyCommonAncestor(1, 0)).isEqualTo(NvmlTopologyLevel.NODE);
        // p2pLevel is read per end: A's side says single, C's side falls back to its NUMA node
        assertThat(nvml.topologyCommonAncestor(0, 2)).isEqualTo(NvmlTopologyLevel.SINGLE);
        assertThat(nvml.topologyCommonAncestor(2, 0)).isEqualTo(NvmlTopologyLevel.NODE);
        assertThat(nvml.topologyCommonAncestor(0, 3)).isEqualTo(NvmlTopologyLevel.SYSTEM);
        assertThat(nvml.topologyCommonAncestor(3, 1)).isEqualTo(NvmlTopologyLevel.SYSTEM);
        assertThat(nvml.topologyCommonAncestor(2, 2)).isEqualTo(NvmlTopologyLevel.INTERNAL);
    }

    @ParameterizedTest
    @CsvSource({"internal, 0", "single, 10", "multiple, 20", "hostbridge, 30", "node, 40", "system, 50"})
    void everyLevelNameIsNvmlsEnumValue(String name, int code) throws IOException {
        reopen("""
                {"devices": [{"uuid": "%s", "numaNode": 0, "p2pLevel": {"%s": "%s"}}, {"uuid": "%s", "numaNode": 1}]}""".formatted(A, B, name, B));
        NvmlTopologyLevel level = nvml.topologyCommonAncestor(0, 1);
        assertThat(level.code()).isEqualTo(code);
        assertThat(level.name()).isEqualToIgnoringCase(name);
        assertThat(nvml.topologyCommonAncestor(1, 0)).isEqualTo(NvmlTopologyLevel.SYSTEM);
    }

    @Test
    void nvLinksLeadToThePeersBusIdOncePerLinkInLinkOrder() {
        assertThat(nvml.nvLinkRemoteBusIds(0)).isEqualTo(Collections.nCopies(12, B_BUS));
        assertThat(nvml.nvLinkRemoteBusIds(1)).isEqualTo(Collections.nCopies(12, "00000000:07:00.0"));
        assertThat(nvml.nvLinkRemoteBusIds(2)).isEqualTo(Collections.nCopies(2, "00000000:07:00.0"));
        assertThat(nvml.nvLinkRemoteBusIds(3)).isEmpty();
        assertThat(nvml.nvLinkRemotePciInfo(0, 11)).isEqualTo(nvml.device(1).pci());
        assertThat(nvml.nvLinkActive(0, 0)).isTrue();
        assertThat(nvml.nvLinkActive(0, 11)).isTrue();
        assertThat(nvml.nvLinkActive(0, 12)).isFalse();
        assertThat(nvml.nvLinkActive(2, 2)).isFalse();
    }

    @Test
    void linksAreAssignedInTheOrderWritten() throws IOException {
        reopen("""
                {"devices": [{"uuid": "%1$s", "nvlinks": {"%3$s": 1, "%2$s": 2}},
                  {"uuid": "%2$s", "pciBusId": "00000000:0F:00.0"}, {"uuid": "%3$s", "pciBusId": "00000000:17:00.0"}]}""".formatted(A, B, C));
        assertThat(nvml.nvLinkRemoteBusIds(0)).containsExactly("00000000:17:00.0", B_BUS, B_BUS);
    }

    @Test
    void switchLinksFollowThePeerLinksAndLeadToAnNvswitch() throws IOException {
        reopen("""
                {"devices": [{"uuid": "%1$s", "pciBusId": "00000000:07:00.0", "nvlinks": {"%2$s": 2}, "nvswitchLinks": 16},
                  {"uuid": "%2$s", "pciBusId": "00000000:0F:00.0", "nvswitchLinks": 18}, {"uuid": "%3$s"}]}""".formatted(A, B, C));
        assertThat(nvml.nvSwitchLinks(0)).isEqualTo(16);
        assertThat(nvml.nvSwitchLinks(1)).isEqualTo(18);
        assertThat(nvml.nvSwitchLinks(2)).isZero();
        assertThat(nvml.nvLinkRemoteDeviceType(0, 1)).isEqualTo(NvmlNvLinkDeviceType.GPU);
        assertThat(nvml.nvLinkRemoteDeviceType(0, 2)).isEqualTo(NvmlNvLinkDeviceType.SWITCH);
        assertThat(nvml.nvLinkRemoteDeviceType(0, 17)).isEqualTo(NvmlNvLinkDeviceType.SWITCH);
        assertThat(nvml.nvLinkRemotePciInfo(1, 0).busId()).isEqualTo("0000FFFF:00:00.0");
        assertThat(nvml.nvLinkRemoteBusIds(0))
                .hasSize(18)
                .startsWith(B_BUS, B_BUS)
                .endsWith("0000FFFF:00:00.0");
        assertThatThrownBy(() -> nvml.nvLinkRemoteDeviceType(2, 0))
                .isInstanceOfSatisfying(VendorStatusException.class, e -> {
                    assertThat(e.code()).isEqualTo(Nvml.ERROR_NOT_SUPPORTED);
                    assertThat(e.function()).isEqualTo("nvmlDeviceGetNvLinkRemoteDeviceType");
                });
        assertThat(NvmlNvLinkDeviceType.of(7)).isEqualTo(NvmlNvLinkDeviceType.UNKNOWN);
    }

    @Test
    void aPcieCardAnOutOfRangeLinkAndAnInactiveLinkAnswerNvmlsCodes() {
        assertThatThrownBy(() -> nvml.nvLinkActive(3, 0)).isInstanceOfSatisfying(VendorStatusException.class, e -> {
            assertThat(e.code()).isEqualTo(Nvml.ERROR_NOT_SUPPORTED);
            assertThat(e.function()).isEqualTo("nvmlDeviceGetNvLinkState");
            assertThat(e.vendorMessage()).isEqualTo("Not Supported");
        });
        assertThatThrownBy(() -> nvml.nvLinkRemotePciInfo(3, 0))
                .isInstanceOfSatisfying(
                        VendorStatusException.class, e -> assertThat(e.code()).isEqualTo(Nvml.ERROR_NOT_SUPPORTED));
        assertThatThrownBy(() -> nvml.nvLinkActive(0, Nvml.NVLINK_MAX_LINKS))
                .isInstanceOfSatisfying(
                        VendorStatusException.class, e -> assertThat(e.code()).isEqualTo(Nvml.ERROR_INVALID_ARGUMENT));
        assertThatThrownBy(() -> nvml.nvLinkRemotePciInfo(0, 12))
                .isInstanceOfSatisfying(VendorStatusException.class, e -> {
                    assertThat(e.code()).isEqualTo(Nvml.ERROR_INVALID_ARGUMENT);
                    assertThat(e.function()).isEqualTo("nvmlDeviceGetNvLinkRemotePciInfo_v2");
                });
    }

    @Test
    void badHandlesAndNullOutputsAreInvalidArguments() {
        var raw = new nvml_h(NativeLibrary.open("NVML", mock.path(LIB)));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
            assertThat(raw.nvmlDeviceGetHandleByIndex_v2(0, out)).isZero();
            MemorySegment a = out.get(ValueLayout.ADDRESS, 0);
            MemorySegment level = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment pci = nvmlPciInfo_t.allocate(arena);
            int invalid = nvml_h.NVML_ERROR_INVALID_ARGUMENT();
            assertThat(raw.nvmlDeviceGetTopologyCommonAncestor(a, MemorySegment.NULL, level))
                    .isEqualTo(invalid);
            assertThat(raw.nvmlDeviceGetTopologyCommonAncestor(MemorySegment.ofAddress(8), a, level))
                    .isEqualTo(invalid);
            assertThat(raw.nvmlDeviceGetTopologyCommonAncestor(a, a, MemorySegment.NULL))
                    .isEqualTo(invalid);
            assertThat(raw.nvmlDeviceGetNvLinkState(MemorySegment.NULL, 0, level))
                    .isEqualTo(invalid);
            assertThat(raw.nvmlDeviceGetNvLinkState(a, 0, MemorySegment.NULL)).isEqualTo(invalid);
            assertThat(raw.nvmlDeviceGetNvLinkRemotePciInfo_v2(MemorySegment.NULL, 0, pci))
                    .isEqualTo(invalid);
            assertThat(raw.nvmlDeviceGetNvLinkRemotePciInfo_v2(a, 0, MemorySegment.NULL))
                    .isEqualTo(invalid);
            assertThat(raw.nvmlDeviceGetNvLinkState(a, 0, level)).isZero();
            assertThat(level.get(ValueLayout.JAVA_INT, 0)).isEqualTo(nvml_h.NVML_FEATURE_ENABLED());
            assertThat(raw.nvmlDeviceGetNvLinkState(a, 17, level)).isZero();
            assertThat(level.get(ValueLayout.JAVA_INT, 0)).isEqualTo(nvml_h.NVML_FEATURE_DISABLED());
        }
    }

    @Test
    void aLostGpuAndInjectedFailuresSurface() {
        mock.control("{\"lost\": [1]}");
        assertThatThrownBy(() -> nvml.topologyCommonAncestor(0, 1))
                .isInstanceOfSatisfying(
                        VendorStatusException.class, e -> assertThat(e.code()).isEqualTo(Nvml.ERROR_GPU_IS_LOST));
        mock.control("{\"failures\": [{\"function\": \"nvmlDeviceGetNvLinkRemotePciInfo_v2\", \"code\": 999,"
                + " \"after\": 3}]}");
        assertThatThrownBy(() -> nvml.nvLinkRemoteBusIds(0)).isInstanceOfSatisfying(VendorStatusException.class, e -> {
            assertThat(e.code()).isEqualTo(999);
            assertThat(e.function()).isEqualTo("nvmlDeviceGetNvLinkRemotePciInfo_v2");
        });
        mock.control("{\"failures\": [{\"function\": \"nvmlDeviceGetTopologyCommonAncestor\", \"code\": 3}]}");
        assertThatThrownBy(() -> nvml.topologyCommonAncestor(0, 2))
                .isInstanceOfSatisfying(
                        VendorStatusException.class, e -> assertThat(e.code()).isEqualTo(Nvml.ERROR_NOT_SUPPORTED));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\"nvlinks\": [1]",
                "\"nvlinks\": {\"GPU-absent\": 2}",
                "\"nvlinks\": {\"%1$s\": 2}",
                "\"nvlinks\": {\"%2$s\": 0}",
                "\"nvlinks\": {\"%2$s\": 1.5}",
                "\"nvlinks\": {\"%2$s\": \"12\"}",
                "\"nvlinks\": {\"%2$s\": 19}",
                "\"nvlinks\": {\"%2$s\": 10, \"%3$s\": 9}",
                "\"nvlinks\": {\"%2$s\": 1, \"%2$s\": 1}",
                "\"nvswitchLinks\": 19",
                "\"nvswitchLinks\": -1",
                "\"nvswitchLinks\": \"4\"",
                "\"nvlinks\": {\"%2$s\": 12}, \"nvswitchLinks\": 7",
                "\"p2pLevel\": \"node\"",
                "\"p2pLevel\": {\"%2$s\": \"near\"}",
                "\"p2pLevel\": {\"%2$s\": 40}",
                "\"p2pLevel\": {\"%1$s\": \"node\"}"
            })
    void aMalformedTopologyFailsInitAsAMalformedFileDoes(String field) throws IOException {
        nvml.close();
        nvml = null;
        Files.writeString(mock.path("devices.json"), """
                {"devices": [{"uuid": "%1$s", %4$s}, {"uuid": "%2$s"}, {"uuid": "%3$s"}]}""".formatted(A, B, C, field.formatted(A, B, C)));
        assertThatThrownBy(() -> Nvml.open(mock.path(LIB))).isInstanceOfSatisfying(VendorStatusException.class, e -> {
            assertThat(e.function()).isEqualTo("nvmlInit_v2");
            assertThat(e.code()).isEqualTo(nvml_h.NVML_ERROR_DRIVER_NOT_LOADED());
        });
        // the same copy initialises again once the file is fixed
        Files.writeString(mock.path("devices.json"), DEVICES);
        nvml = Nvml.open(mock.path(LIB));
        assertThat(nvml.nvLinkRemoteBusIds(0)).hasSize(12);
    }

    private void reopen(String devices) throws IOException {
        nvml.close();
        Files.writeString(mock.path("devices.json"), devices);
        nvml = Nvml.open(mock.path(LIB));
    }
}
