package io.hami.protocol.fit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.DeviceInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The device's room for more grants, shared by the fit walk and a bind's check of its written decision. */
class DeviceRoomTest {
    /** Split 4 ways, 8000 MiB, 100 cores. */
    static final DeviceInfo GPU = new DeviceInfo("GPU-1", 0, 4, 8000, 100, "T", 0, "hami-core", true);

    @ParameterizedTest(name = "holds {0}/{1} MiB/{2} cores + {3}/{4}/{5} -> {6}")
    @CsvSource(
            nullValues = "room",
            value = {
                "0, 0, 0, 1, 8000, 100, room",
                "3, 6000, 60, 1, 2000, 40, room",
                "2, 0, 0, 2, 0, 10, room",
                "3, 0, 0, 2, 0, 10, CardTimeSlicingExhausted",
                "4, 8000, 100, 1, 1, 1, CardTimeSlicingExhausted",
                "1, 6000, 10, 1, 2001, 10, CardInsufficientMemory",
                "1, 1000, 70, 1, 1000, 31, CardInsufficientCore",
                "1, 1000, 0, 1, 1000, 100, ExclusiveDeviceAllocateConflict",
                "1, 1000, 100, 1, 1000, 0, CardComputeUnitsExhausted",
                // sums past an int: no wrap to free room
                "0, 2147483647, 0, 1, 2147483647, 0, CardInsufficientMemory",
                "0, 0, 0, 1, 9223372036854775807, 0, CardInsufficientMemory",
            })
    void aDeviceHasRoomUnlessOneRuleSaysWhyNot(
            int used, int usedMem, int usedCores, long slots, long mem, long cores, String expected) {
        var holds = new DeviceUsage(GPU, used, usedMem, usedCores);

        assertThat(DeviceRoom.lacking(holds, slots, mem, cores)).isEqualTo(expected);
    }
}
