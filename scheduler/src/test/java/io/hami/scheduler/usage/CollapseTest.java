package io.hami.scheduler.usage;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.PodDevices;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CollapseTest {
    static ContainerDevice d(String uuid, int mem, int cores) {
        return new ContainerDevice(uuid, "NVIDIA", mem, cores);
    }

    @Test
    void initContainersCountAtTheirPeakAndAppContainersAsASum() {
        var pod = new PodDevices(List.of(
                List.of(d("A", 4000, 30)), // init 0
                List.of(d("A", 1000, 60)), // init 1
                List.of(d("A", 1500, 10)), // app
                List.of(d("A", 1500, 10), d("B", 100, 0)))); // app
        assertThat(Collapse.of(pod, 2, false))
                .isEqualTo(Map.of(
                        "A", new Grant(2, 4000, 60), // max(peak 4000/60, sum 3000/20), slots = 2 app uses
                        "B", new Grant(1, 100, 0)));
    }

    @Test
    void onceInitContainersSucceededOnlyAppContainersCount() {
        var pod = new PodDevices(List.of(List.of(d("A", 4000, 30)), List.of(d("A", 1500, 10))));
        assertThat(Collapse.of(pod, 1, true)).isEqualTo(Map.of("A", new Grant(1, 1500, 10)));
        assertThat(Collapse.of(pod, 1, false)).isEqualTo(Map.of("A", new Grant(1, 4000, 30)));
    }

    @Test
    void aDeviceUsedOnlyByInitContainersHoldsOneSlot() {
        var pod = new PodDevices(List.of(List.of(d("A", 10, 1)), List.of(d("A", 20, 2)), List.of()));
        assertThat(Collapse.of(pod, 2, false)).isEqualTo(Map.of("A", new Grant(1, 20, 2)));
    }
}
