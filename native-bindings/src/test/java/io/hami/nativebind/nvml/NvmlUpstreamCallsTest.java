package io.hami.nativebind.nvml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.nativebind.MockLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The NVML calls upstream HAMi's NVIDIA device plugin makes (through go-nvml and go-nvlib) beyond those the
 * production bindings use: handle lookups by UUID and PCI bus id, and the MIG queries every GPU goes through.
 * Called through plain downcalls, as go-nvml calls them, against a private copy of the mock.
 */
class NvmlUpstreamCallsTest {

    static final String LIB = "libnvidia-ml.so.1";
    static final int SUCCESS = 0;
    static final int UNINITIALIZED = 1;
    static final int INVALID_ARGUMENT = 2;
    static final int NOT_SUPPORTED = 3;
    static final int NOT_FOUND = 6;
    static final int INSUFFICIENT_SIZE = 7;
    static final int DRIVER_NOT_LOADED = 9;
    static final int GPU_IS_LOST = 15;
    static final int OPERATING_SYSTEM = 17;

    /** Device 0: a MIG-capable card out of MIG mode (the default); 1: a card without MIG; 2: another PCI domain. */
    static final String A100 = "GPU-a1000000-0000-0000-0000-000000000000";

    static final String T4 = "GPU-70000000-0000-0000-0000-000000000001";
    static final String H100 = "GPU-b1000000-0000-0000-0000-000000000002";
    static final String DEVICES = """
            {"devices": [
              {"uuid": "%s", "name": "NVIDIA A100-SXM4-40GB", "pciBusId": "00000000:07:00.0"},
              {"uuid": "%s", "name": "Tesla T4", "pciBusId": "00000000:3B:00.0", "migMode": "unsupported",
               "computeCapabilityMajor": 7, "computeCapabilityMinor": 5},
              {"uuid": "%s", "name": "NVIDIA H100 80GB HBM3", "pciBusId": "00000001:8A:00.0", "migMode": "disabled"}
            ]}""".formatted(A100, T4, H100);

    @TempDir
    Path dir;

    MockLibrary mock;
    NvmlDowncalls nvml;
    Arena arena;

    @BeforeEach
    void init() {
        mock = MockLibrary.install(dir, "nvidia", DEVICES, LIB);
        nvml = new NvmlDowncalls(mock.path(LIB));
        arena = Arena.ofConfined();
        assertThat(nvml.call("nvmlInit_v2")).isEqualTo(SUCCESS);
    }

    @AfterEach
    void shutdown() {
        nvml.call("nvmlShutdown");
        arena.close();
        nvml.close();
    }

    @Test
    void findsEachDeviceByItsUuidAsTheRegisterAndHealthPathsDo() {
        String[] uuids = {A100, T4, H100};
        for (int i = 0; i < uuids.length; i++) {
            MemorySegment handle = handleByUuid(uuids[i]);
            assertThat(handle).as("handle of %s", uuids[i]).isEqualTo(handle(i));
            MemorySegment index = arena.allocate(JAVA_INT);
            assertThat(nvml.call("nvmlDeviceGetIndex", handle, index)).isEqualTo(SUCCESS);
            assertThat(index.get(JAVA_INT, 0)).isEqualTo(i);
        }
        MemorySegment out = arena.allocate(ADDRESS);
        assertThat(nvml.call("nvmlDeviceGetHandleByUUID", arena.allocateFrom("GPU-unknown"), out))
                .isEqualTo(NOT_FOUND);
        // a MIG device UUID: the mock has no MIG devices
        assertThat(nvml.call(
                        "nvmlDeviceGetHandleByUUID",
                        arena.allocateFrom("MIG-a1000000-0000-0000-0000-000000000000"),
                        out))
                .isEqualTo(NOT_FOUND);
        // a prefix of a UUID is no UUID
        assertThat(nvml.call("nvmlDeviceGetHandleByUUID", arena.allocateFrom(A100.substring(0, 20)), out))
                .isEqualTo(NOT_FOUND);
        assertThat(nvml.call("nvmlDeviceGetHandleByUUID", MemorySegment.NULL, out))
                .isEqualTo(INVALID_ARGUMENT);
    }

    @Test
    void findsDevicesByPciBusIdInTheThreeFormsNvmlAccepts() {
        Map<String, Integer> found = Map.of(
                "00000000:3B:00.0", 1, // busId as nvmlDeviceGetPciInfo_v3 gives it
                "0000:3b:00.0", 1, // busIdLegacy, lower-case hex
                "0:3B:0", 1, // domain:bus:device
                "3B:00.0", 1, // bus:device.function, domain 0
                "00000001:8A:00.0", 2,
                "0000:07:00.0", 0);
        found.forEach((busId, index) -> {
            MemorySegment out = arena.allocate(ADDRESS);
            assertThat(nvml.call("nvmlDeviceGetHandleByPciBusId_v2", arena.allocateFrom(busId), out))
                    .as(busId)
                    .isEqualTo(SUCCESS);
            assertThat(out.get(ADDRESS, 0)).as(busId).isEqualTo(handle(index));
        });
        MemorySegment out = arena.allocate(ADDRESS);
        // device 2 is in domain 1, so bus:device.function (domain 0) does not reach it
        assertThat(nvml.call("nvmlDeviceGetHandleByPciBusId_v2", arena.allocateFrom("8A:00.0"), out))
                .isEqualTo(NOT_FOUND);
        assertThat(nvml.call("nvmlDeviceGetHandleByPciBusId_v2", arena.allocateFrom("0000:3B:00.1"), out))
                .isEqualTo(NOT_FOUND);
        for (String bad : new String[] {
            "",
            "GPU-0",
            "3B",
            "0000:3B:00.0x",
            "0000:3B:00.0:1",
            " 3B:00.0",
            "-1:3B:00.0",
            "0x0:3B:00.0",
            "000000000:3B:00.0"
        }) {
            assertThat(nvml.call("nvmlDeviceGetHandleByPciBusId_v2", arena.allocateFrom(bad), out))
                    .as("'%s'", bad)
                    .isEqualTo(INVALID_ARGUMENT);
        }
    }

    @Test
    void aMigCapableCardOutOfMigModeAnswersAsAnA100Does() {
        for (int device : new int[] {0, 2}) {
            MemorySegment handle = handle(device);
            MemorySegment current = filled(7);
            MemorySegment pending = filled(7);
            assertThat(nvml.call("nvmlDeviceGetMigMode", handle, current, pending))
                    .isEqualTo(SUCCESS);
            assertThat(current.get(JAVA_INT, 0))
                    .as("current mode: NVML_DEVICE_MIG_DISABLE")
                    .isZero();
            assertThat(pending.get(JAVA_INT, 0))
                    .as("pending mode: NVML_DEVICE_MIG_DISABLE")
                    .isZero();

            MemorySegment count = filled(7);
            assertThat(nvml.call("nvmlDeviceGetMaxMigDeviceCount", handle, count))
                    .isEqualTo(SUCCESS);
            assertThat(count.get(JAVA_INT, 0)).isZero();
            MemorySegment isMig = filled(7);
            assertThat(nvml.call("nvmlDeviceIsMigDeviceHandle", handle, isMig)).isEqualTo(SUCCESS);
            assertThat(isMig.get(JAVA_INT, 0)).isZero();

            MemorySegment out = arena.allocate(ADDRESS);
            assertThat(nvml.call("nvmlDeviceGetMigDeviceHandleByIndex", handle, 0, out))
                    .isEqualTo(NOT_FOUND);
            // a whole GPU's handle is no MIG device handle
            assertThat(nvml.call("nvmlDeviceGetDeviceHandleFromMigDeviceHandle", handle, out))
                    .isEqualTo(INVALID_ARGUMENT);
            assertThat(nvml.call("nvmlDeviceGetGpuInstanceId", handle, filled(0)))
                    .isEqualTo(INVALID_ARGUMENT);
            assertThat(nvml.call("nvmlDeviceGetComputeInstanceId", handle, filled(0)))
                    .isEqualTo(INVALID_ARGUMENT);
            // profiles and instances exist only in MIG mode; ids from NVML_GPU_INSTANCE_PROFILE_COUNT on are invalid
            MemorySegment info = arena.allocate(48);
            assertThat(nvml.call("nvmlDeviceGetGpuInstanceProfileInfo", handle, 0, info))
                    .isEqualTo(NOT_SUPPORTED);
            assertThat(nvml.call("nvmlDeviceGetGpuInstanceProfileInfo", handle, 0x11, info))
                    .isEqualTo(NOT_SUPPORTED);
            assertThat(nvml.call("nvmlDeviceGetGpuInstanceProfileInfo", handle, 0x12, info))
                    .isEqualTo(INVALID_ARGUMENT);
            assertThat(nvml.call(
                            "nvmlDeviceGetGpuInstancePossiblePlacements_v2", handle, 0, MemorySegment.NULL, filled(0)))
                    .as("placements may be NULL to ask for the count")
                    .isEqualTo(NOT_SUPPORTED);
            assertThat(nvml.call("nvmlDeviceGetGpuInstances", handle, 0, arena.allocate(ADDRESS, 8), filled(8)))
                    .isEqualTo(NOT_SUPPORTED);
        }
    }

    @Test
    void aCardWithoutMigAnswersNotSupportedAsAT4Does() {
        MemorySegment t4 = handle(1);
        MemorySegment current = filled(7);
        assertThat(nvml.call("nvmlDeviceGetMigMode", t4, current, filled(7))).isEqualTo(NOT_SUPPORTED);
        assertThat(current.get(JAVA_INT, 0)).as("left alone").isEqualTo(7);
        MemorySegment count = filled(7);
        assertThat(nvml.call("nvmlDeviceGetMaxMigDeviceCount", t4, count)).isEqualTo(SUCCESS);
        assertThat(count.get(JAVA_INT, 0)).as("zero when MIG is not supported").isZero();
        MemorySegment out = arena.allocate(ADDRESS);
        assertThat(nvml.call("nvmlDeviceGetMigDeviceHandleByIndex", t4, 0, out)).isEqualTo(NOT_SUPPORTED);
        assertThat(nvml.call("nvmlDeviceGetDeviceHandleFromMigDeviceHandle", t4, out))
                .isEqualTo(NOT_SUPPORTED);
        assertThat(nvml.call("nvmlDeviceGetGpuInstanceId", t4, filled(0))).isEqualTo(NOT_SUPPORTED);
        assertThat(nvml.call("nvmlDeviceGetComputeInstanceId", t4, filled(0))).isEqualTo(NOT_SUPPORTED);
        assertThat(nvml.call("nvmlDeviceGetGpuInstanceProfileInfo", t4, 0, arena.allocate(48)))
                .isEqualTo(NOT_SUPPORTED);
    }

    /** Each new function: its answer on device 1 (a card without MIG), then the contract every NVML call keeps. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "nvmlDeviceGetHandleByUUID",
                "nvmlDeviceGetHandleByPciBusId_v2",
                "nvmlDeviceGetMigMode",
                "nvmlDeviceGetMaxMigDeviceCount",
                "nvmlDeviceGetMigDeviceHandleByIndex",
                "nvmlDeviceIsMigDeviceHandle",
                "nvmlDeviceGetDeviceHandleFromMigDeviceHandle",
                "nvmlDeviceGetGpuInstanceId",
                "nvmlDeviceGetComputeInstanceId",
                "nvmlDeviceGetGpuInstanceProfileInfo",
                "nvmlDeviceGetGpuInstancePossiblePlacements_v2",
                "nvmlDeviceGetGpuInstances"
            })
    void keepsNvmlsContract(String function) {
        int answer = switch (function) {
            case "nvmlDeviceGetHandleByUUID",
                    "nvmlDeviceGetHandleByPciBusId_v2",
                    "nvmlDeviceGetMaxMigDeviceCount",
                    "nvmlDeviceIsMigDeviceHandle" -> SUCCESS;
            default -> NOT_SUPPORTED;
        };
        MemorySegment t4 = handle(1);
        assertThat(call(function, t4, true)).as("answer").isEqualTo(answer);

        // fault injection by name: one failure, then the answer again
        mock.control("{\"failures\": [{\"function\": \"" + function + "\", \"code\": 17, \"count\": 1}]}");
        assertThat(call(function, t4, true)).as("injected").isEqualTo(OPERATING_SYSTEM);
        assertThat(call(function, t4, true)).as("after the injected failure").isEqualTo(answer);

        // a NULL out-pointer
        assertThat(call(function, t4, false)).as("NULL out-pointer").isEqualTo(INVALID_ARGUMENT);

        // a handle the mock never gave out (the lookups take no handle)
        if (!function.startsWith("nvmlDeviceGetHandleBy")) {
            assertThat(call(function, arena.allocate(64), true))
                    .as("bad handle")
                    .isEqualTo(INVALID_ARGUMENT);
            assertThat(call(function, MemorySegment.NULL, true))
                    .as("NULL handle")
                    .isEqualTo(INVALID_ARGUMENT);
        }

        // a GPU fallen off the bus, the handle taken before
        mock.control("{\"lost\": [1]}");
        assertThat(call(function, t4, true)).as("lost").isEqualTo(GPU_IS_LOST);
        mock.control("{}");
        assertThat(call(function, t4, true)).as("found again").isEqualTo(answer);

        // before init
        assertThat(nvml.call("nvmlShutdown")).isEqualTo(SUCCESS);
        assertThat(call(function, t4, true)).as("uninitialized").isEqualTo(UNINITIALIZED);
        assertThat(nvml.call("nvmlInit_v2")).isEqualTo(SUCCESS);
    }

    @Test
    void stringCallsTellANullBufferFromAShortOne() {
        MemorySegment a100 = handle(0);
        assertThat(nvml.call("nvmlDeviceGetUUID", a100, MemorySegment.NULL, 96)).isEqualTo(INVALID_ARGUMENT);
        assertThat(nvml.call("nvmlDeviceGetUUID", a100, arena.allocate(96), A100.length()))
                .as("no room for the NUL")
                .isEqualTo(INSUFFICIENT_SIZE);
        MemorySegment uuid = arena.allocate(96);
        assertThat(nvml.call("nvmlDeviceGetUUID", a100, uuid, A100.length() + 1))
                .isEqualTo(SUCCESS);
        assertThat(uuid.getString(0)).isEqualTo(A100);
        assertThat(nvml.call("nvmlDeviceGetName", a100, MemorySegment.NULL, 96)).isEqualTo(INVALID_ARGUMENT);
        assertThat(nvml.call("nvmlDeviceGetName", a100, arena.allocate(96), 4)).isEqualTo(INSUFFICIENT_SIZE);
        assertThat(nvml.call("nvmlSystemGetDriverVersion", MemorySegment.NULL, 80))
                .isEqualTo(INVALID_ARGUMENT);
        assertThat(nvml.call("nvmlSystemGetDriverVersion", arena.allocate(80), 3))
                .isEqualTo(INSUFFICIENT_SIZE);
    }

    @Test
    void anUnknownMigModeFailsInit(@TempDir Path other) {
        var bad = MockLibrary.install(
                other, "nvidia", "{\"devices\": [{\"uuid\": \"GPU-x\", \"migMode\": \"enabled\"}]}", LIB);
        try (var calls = new NvmlDowncalls(bad.path(LIB))) {
            // the reason goes to stderr: devices[0].migMode must be "disabled" or "unsupported"
            assertThat(calls.call("nvmlInit_v2")).isEqualTo(DRIVER_NOT_LOADED);
        }
    }

    /**
     * Calls {@code function} on {@code device}, with a valid out-pointer (and key for the lookups, those of device
     * 1) when {@code withOut}, else with a NULL one.
     */
    private int call(String function, MemorySegment device, boolean withOut) {
        MemorySegment out = withOut ? arena.allocate(JAVA_LONG, 8) : MemorySegment.NULL;
        return switch (function) {
            case "nvmlDeviceGetHandleByUUID" -> nvml.call(function, arena.allocateFrom(T4), out);
            case "nvmlDeviceGetHandleByPciBusId_v2" -> nvml.call(function, arena.allocateFrom("00000000:3B:00.0"), out);
            case "nvmlDeviceGetMigMode" -> nvml.call(function, device, out, withOut ? filled(0) : MemorySegment.NULL);
            case "nvmlDeviceGetMigDeviceHandleByIndex" -> nvml.call(function, device, 0, out);
            case "nvmlDeviceGetGpuInstanceProfileInfo" -> nvml.call(function, device, 0, out);
            case "nvmlDeviceGetGpuInstancePossiblePlacements_v2" ->
                nvml.call(function, device, 0, arena.allocate(JAVA_LONG, 8), out);
            case "nvmlDeviceGetGpuInstances" -> nvml.call(function, device, 0, arena.allocate(ADDRESS, 8), out);
            default -> nvml.call(function, device, out);
        };
    }

    private MemorySegment handle(int index) {
        MemorySegment out = arena.allocate(ADDRESS);
        assertThat(nvml.call("nvmlDeviceGetHandleByIndex_v2", index, out)).isEqualTo(SUCCESS);
        return out.get(ADDRESS, 0);
    }

    private MemorySegment handleByUuid(String uuid) {
        MemorySegment out = arena.allocate(ADDRESS);
        assertThat(nvml.call("nvmlDeviceGetHandleByUUID", arena.allocateFrom(uuid), out))
                .as(uuid)
                .isEqualTo(SUCCESS);
        return out.get(ADDRESS, 0);
    }

    /** An unsigned int holding {@code value}, to see whether a call wrote it. */
    private MemorySegment filled(int value) {
        MemorySegment segment = arena.allocate(JAVA_INT);
        segment.set(JAVA_INT, 0, value);
        return segment;
    }
}
