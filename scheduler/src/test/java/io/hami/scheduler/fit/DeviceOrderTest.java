package io.hami.scheduler.fit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeviceOrderTest {
    static DeviceOrder.Scored dev(String id, int index, int numa, int used, float score) {
        var d = new DeviceInfo(id, index, 10, 1000, 100, "NVIDIA-X", numa, "hami-core", true);
        return new DeviceOrder.Scored(new DeviceUsage(d, used, 0, 0), score);
    }

    static List<String> ids(List<DeviceUsage> sorted) {
        return sorted.stream().map(u -> u.device().id()).toList();
    }

    final List<DeviceOrder.Scored> devices =
            List.of(dev("a", 0, 1, 0, 5f), dev("b", 1, 0, 3, 9f), dev("c", 2, 0, 1, 1f), dev("d", 3, 1, 0, 9f));

    @Test
    void binpackSortsByAscendingScoreSoTheWalkFromTheEndTriesTheFullestFirst() {
        assertThat(ids(DeviceOrder.sort(devices, "binpack", false))).containsExactly("c", "a", "b", "d");
    }

    @Test
    void spreadSortsByDescendingScoreSoTheWalkTriesTheEmptiestFirst() {
        assertThat(ids(DeviceOrder.sort(devices, "spread", false))).containsExactly("b", "d", "a", "c");
        assertThat(ids(DeviceOrder.sort(devices, "topology-aware", false))).containsExactly("b", "d", "a", "c");
    }

    @Test
    void mutexPutsTheMostSharedFirst() {
        assertThat(ids(DeviceOrder.sort(devices, "mutex", false))).containsExactly("b", "c", "a", "d");
    }

    @Test
    void numaBindGroupsByNumaNode() {
        // binpack: higher NUMA first, ascending score within a node
        assertThat(ids(DeviceOrder.sort(devices, "binpack", true))).containsExactly("a", "d", "c", "b");
        // spread: lower NUMA first, descending score within a node
        assertThat(ids(DeviceOrder.sort(devices, "spread", true))).containsExactly("b", "c", "d", "a");
    }

    @Test
    void chainPolicyComparesKeysInOrderAndBreaksTiesByIndex() {
        assertThat(ids(DeviceOrder.sort(devices, "numa,binpack", false))).containsExactly("c", "b", "a", "d");
        assertThat(ids(DeviceOrder.sort(devices, "binpack,numa", false))).containsExactly("c", "a", "b", "d");
        // numa-bind moves numa to the front of a chain
        assertThat(ids(DeviceOrder.sort(devices, "spread,numa", true))).containsExactly("b", "c", "d", "a");
        // a chain of unknown tokens falls back to spread
        assertThat(ids(DeviceOrder.sort(devices, "mutex,topology-aware", false)))
                .containsExactly("b", "d", "a", "c");
    }
}
