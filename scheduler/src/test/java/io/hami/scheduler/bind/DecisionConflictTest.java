package io.hami.scheduler.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.scheduler.fit.NodeView;
import io.hami.scheduler.usage.Grant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DecisionConflictTest {
    static final DeviceInfo GPU = new DeviceInfo("GPU-1", 0, 4, 8000, 100, "NVIDIA-A100", 0, "hami-core", true);

    @ParameterizedTest(name = "others {0} grants/{1} MiB/{2} cores + ours {3}/{4}/{5} -> {6}")
    @CsvSource(
            nullValues = "fits",
            value = {
                "0, 0, 0, 1, 8000, 100, fits",
                "3, 6000, 60, 1, 2000, 40, fits",
                "4, 1000, 10, 1, 1000, 10, '5 grants, split count 4'",
                "1, 6000, 10, 1, 2001, 10, 8001 MiB granted of 8000",
                "1, 1000, 70, 1, 1000, 31, 101 cores granted of 100",
                "1, 1000, 0, 1, 1000, 100, a whole-card grant beside 1 other grants",
                "1, 1000, 100, 1, 1000, 0, no cores left for a grant without cores",
            })
    void aDecisionCollidesOnlyWhenTheDeviceCannotHoldBoth(
            int used, int usedMem, int usedCores, long slots, long mem, long cores, String expected) {
        var others =
                new NodeView("n1", Map.of(), Map.of("NVIDIA", List.of(new DeviceUsage(GPU, used, usedMem, usedCores))));

        String conflict = DecisionConflict.find(others, Map.of("GPU-1", new Grant(slots, mem, cores)));

        if (expected == null) {
            assertThat(conflict).isNull();
        } else {
            assertThat(conflict).isEqualTo("device GPU-1 on node n1: " + expected);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"GPU-9"})
    void aDeviceTheNodeNoLongerHasIsACollision(String id) {
        var others = new NodeView("n1", Map.of(), Map.of("NVIDIA", List.of(DeviceUsage.idle(GPU))));

        assertThat(DecisionConflict.find(others, Map.of(id, new Grant(1, 1, 0))))
                .isEqualTo("device GPU-9 is no longer on node n1");
    }
}
