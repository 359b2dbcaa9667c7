package io.hami.lab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scenario keys of issue 14: PriorityClasses, gangs, NVLink islands and the scheduler's new switches. */
class SchedulingKeysTest {

    private static final String VALID = """
            name: sched
            scheduler: {requeueOnRelease: false, gangLockWait: 3s}
            priorityClasses: {low: 10, high: 1000}
            nodes:
              - name: nvl
                devices:
                  - {vendor: nvidia, model: H100, count: 8, memory: 81920, nvlink: [[0, 1, 2, 3], [4, 5, 6, 7]]}
            workloads:
              - name: gang
                podGroup: train
                priorityClass: high
                annotations: {hami.io/gpu-scheduler-policy: topology-aware}
                containers:
                  - {name: main, resources: {nvidia.com/gpu: 2}}
            """;

    @Test
    void readsTheKeysWithTheirDefaults() throws Exception {
        Scenario s = ScenarioLoader.parse(VALID, "sched.yaml");

        assertThat(s.scheduler().requeueOnRelease()).isFalse();
        assertThat(s.scheduler().gangLockWait()).isEqualTo(Duration.ofSeconds(3));
        assertThat(s.priorityClasses()).containsEntry("high", 1000);
        Workload w = s.workloads().getFirst();
        assertThat(w.podGroup()).isEqualTo("train");
        assertThat(w.priorityClass()).isEqualTo("high");
        DeviceGroup gpus = s.nodeSpecs().getFirst().devices(Vendor.NVIDIA).orElseThrow();
        assertThat(gpus.nvlinkLinks()).isEqualTo(2);
        assertThat(List.of(gpus.islandOf(0), gpus.islandOf(5))).containsExactly(0, 1);
        assertThat(s.topologyScore()).as("a workload asks for topology-aware").isTrue();

        Scenario plain = ScenarioLoader.parse(VALID.replace("topology-aware", "binpack"), "sched.yaml");
        assertThat(plain.topologyScore()).isFalse();
        assertThat(SchedulerSpec.DEFAULTS.requeueOnRelease()).isTrue();
        assertThat(SchedulerSpec.DEFAULTS.gangLockWait()).isEqualTo(Duration.ofSeconds(10));
    }

    @Test
    void badIslandsAreEachNamed() {
        String yaml = VALID.replace("[[0, 1, 2, 3], [4, 5, 6, 7]]", "[[0, 1, 9], [1, 2], [3]]");

        assertThatThrownBy(() -> ScenarioLoader.parse(yaml, "sched.yaml"))
                .hasMessageContaining("nodes[0].devices[0].nvlink[0]: device 9 does not exist (devices 0..7)")
                .hasMessageContaining("nodes[0].devices[0].nvlink[1]: device 1 is in another island too")
                .hasMessageContaining("nodes[0].devices[0].nvlink[2]: an island links at least 2 devices, got [3]")
                .hasMessageNotContaining("io.hami");
    }

    @Test
    void nvlinkOnlyOnNvidiaAndWithinTheLinkLimit() {
        String hygon = VALID.replace("vendor: nvidia, model: H100", "vendor: hygon, model: Z100");
        assertThatThrownBy(() -> ScenarioLoader.parse(hygon, "sched.yaml"))
                .hasMessageContaining("nodes[0].devices[0].nvlink: only nvidia devices have NVLink, not hygon");
        String links = VALID.replace("[4, 5, 6, 7]]}", "[4, 5, 6, 7]], nvlinkLinks: 19}");
        assertThatThrownBy(() -> ScenarioLoader.parse(links, "sched.yaml"))
                .hasMessageContaining("nodes[0].devices[0].nvlinkLinks must be 1..18, got 19");
    }

    @Test
    void aWorkloadNamesAnExistingPriorityClass() {
        String yaml = VALID.replace("priorityClass: high", "priorityClass: hihg");

        assertThatThrownBy(() -> ScenarioLoader.parse(yaml, "sched.yaml"))
                .hasMessageContaining("workloads[0] (gang).priorityClass \"hihg\" is not one of the scenario's "
                        + "priorityClasses (high, low)");
    }

    @Test
    void priorityValuesAndGroupNamesAreChecked() {
        String yaml = VALID.replace("high: 1000}", "high: 2000000000}").replace("podGroup: train", "podGroup: Train_1");

        assertThatThrownBy(() -> ScenarioLoader.parse(yaml, "sched.yaml"))
                .hasMessageContaining("priorityClasses.high must be an integer up to 1000000000")
                .hasMessageContaining("workloads[0] (gang).podGroup must be a DNS label");
    }
}
