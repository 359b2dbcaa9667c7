package io.hami.scheduler.fit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NodeScoreTest {
    static DeviceInfo gpu(String id, int index) {
        return new DeviceInfo(id, index, 10, 8000, 100, "NVIDIA-A", 0, "hami-core", true);
    }

    @Test
    void emptyNodeScoresZeroAndHalfUsedDeviceScoresFifteenAsUpstreamTests() {
        var empty = new NodeView("n", Map.of(), Map.of("NVIDIA", List.of(DeviceUsage.idle(gpu("a", 0)))));
        assertThat(NodeScore.of(empty)).isZero();
        var half = new NodeView("n", Map.of(), Map.of("NVIDIA", List.of(new DeviceUsage(gpu("a", 0), 5, 4000, 50))));
        assertThat(NodeScore.of(half)).isEqualTo(15f);
    }

    @Test
    void sumsOverEveryVendorOnTheNode() {
        var node = new NodeView(
                "n",
                Map.of(),
                Map.of(
                        "NVIDIA", List.of(new DeviceUsage(gpu("a", 0), 10, 8000, 100)),
                        "MLU", List.of(DeviceUsage.idle(new DeviceInfo("m", 0, 10, 8000, 100, "MLU", 0, "", true)))));
        assertThat(NodeScore.of(node)).isEqualTo(15f);
    }

    @Test
    void priorityIsHighestForTheFullestNodeUnderBinpackAndTheEmptiestUnderSpread() {
        assertThat(NodeScore.priority(30f, "binpack")).isEqualTo(10);
        assertThat(NodeScore.priority(0f, "binpack")).isZero();
        assertThat(NodeScore.priority(30f, "spread")).isZero();
        assertThat(NodeScore.priority(0f, "spread")).isEqualTo(10);
        assertThat(NodeScore.priority(15f, "spread")).isEqualTo(5);
    }
}
