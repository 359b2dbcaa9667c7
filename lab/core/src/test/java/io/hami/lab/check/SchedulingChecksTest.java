package io.hami.lab.check;

import static io.hami.lab.check.ClusterFixtures.GPU0;
import static io.hami.lab.check.ClusterFixtures.GPU1;
import static io.hami.lab.check.ClusterFixtures.NODE;
import static io.hami.lab.check.ClusterFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.lab.kubescheduler.SchedulingLog;
import io.hami.lab.node.DeviceIds;
import io.hami.lab.scenario.Scenario;
import io.hami.lab.scenario.ScenarioLoader;
import io.hami.lab.scenario.Vendor;
import io.hami.lab.scenario.Workload;
import io.hami.lab.workload.PodPlan;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scheduling invariants fed states that break them, and the release-wait figure from a hand-made log. */
class SchedulingChecksTest {
    private static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);
    private static final long S = 1_000_000_000L;

    private static String grant(String... uuids) {
        var b = new StringBuilder();
        for (String u : uuids) {
            b.append(u).append(",NVIDIA,40960,100:");
        }
        return b.append(';').toString();
    }

    private static PodPlan member(String name) {
        var w = new Workload(
                name.replaceAll("-\\d+$", ""), 3, null, null, null, null, null, null, List.of(), null, "train");
        return new PodPlan(name, w, Duration.ZERO, null);
    }

    @Test
    void aGangMemberRefusedForContentionOrNeverBoundBreaksTheGangInvariant() {
        var log = new SchedulingLog();
        log.add(new SchedulingLog.Bound("default/t-0", NODE, 0, S));
        log.add(new SchedulingLog.Refused(
                "default/t-1", NODE, S, true, Duration.ofMillis(3), "node lock contention: held by t-0"));
        log.add(new SchedulingLog.Bound("default/t-1", NODE, S, 2 * S));
        var plans = List.of(member("t-0"), member("t-1"), member("t-2"));

        Invariant gangs = new SchedulingChecks(log, List.of(), BACKENDS).gangs(plans);

        assertThat(gangs.checked()).isEqualTo(3);
        assertThat(gangs.violations())
                .containsExactlyInAnyOrder(
                        "default/t-1 (gang train): 1 bind(s) refused for node-lock contention, the longest after 3 ms: "
                                + "node lock contention: held by t-0",
                        "default/t-2 (gang train) was never bound");

        log.add(new SchedulingLog.Bound("default/t-2", NODE, S, 2 * S));
        var clean = new SchedulingLog();
        log.of(SchedulingLog.Bound.class).forEach(clean::add);
        assertThat(new SchedulingChecks(clean, List.of(), BACKENDS).gangs(plans).holds())
                .isTrue();
    }

    @Test
    void aVictimOfEqualPriorityOrHoldingNothingThePreemptorGotBreaksThePreemptionInvariant() {
        Pod preemptor = pod("p", "Running", grant(GPU0), 0, 1);
        var log = new SchedulingLog();
        log.add(new SchedulingLog.Preemption(
                "default/p",
                1000,
                NODE,
                2,
                List.of(
                        new SchedulingLog.Victim("default/low", 10, Map.of(ClusterFixtures.ALLOCATED, grant(GPU0))),
                        new SchedulingLog.Victim("default/peer", 1000, Map.of(ClusterFixtures.ALLOCATED, grant(GPU1)))),
                S));
        log.add(new SchedulingLog.Bound("default/p", NODE, 2 * S, 3 * S));

        Invariant preemption = new SchedulingChecks(log, List.of(preemptor), BACKENDS).preemptions();

        assertThat(preemption.checked()).isEqualTo(1);
        assertThat(preemption.violations())
                .hasSize(2)
                .anySatisfy(v -> assertThat(v).contains("evicted default/peer of priority 1000, not lower"))
                .anySatisfy(v -> assertThat(v).contains("evicted default/peer, which held [" + GPU1 + "]"));
    }

    @Test
    void aPreemptorNeverBoundOrBoundElsewhereBreaksIt() {
        var victim = new SchedulingLog.Victim("default/low", 10, Map.of(ClusterFixtures.ALLOCATED, grant(GPU0)));
        var log = new SchedulingLog();
        log.add(new SchedulingLog.Preemption("default/p", 1000, NODE, 1, List.of(victim), S));
        log.add(new SchedulingLog.Preemption("default/q", 1000, NODE, 1, List.of(victim), S));
        log.add(new SchedulingLog.Bound("default/q", "other-0", 2 * S, 3 * S));

        Invariant preemption = new SchedulingChecks(log, List.of(), BACKENDS).preemptions();

        assertThat(preemption.violations())
                .anySatisfy(v -> assertThat(v).contains("default/p (priority 1000) on gpu-0 was never bound"))
                .anySatisfy(v -> assertThat(v).contains("was bound to other-0, not the node it preempted"));
    }

    private static Scenario nvlinkScenario() throws Exception {
        return ScenarioLoader.parse("""
                name: topo
                nodes:
                  - name: gpu
                    devices: [{vendor: nvidia, model: H100, count: 4, memory: 40960, nvlink: [[0, 1], [2, 3]]}]
                workloads:
                  - name: pair
                    annotations: {hami.io/gpu-scheduler-policy: topology-aware}
                    containers: [{name: main, resources: {nvidia.com/gpu: 2}}]
                """, "topo.yaml");
    }

    private static Pod topologyAware(Pod pod) {
        return new PodBuilder(pod)
                .editMetadata()
                .addToAnnotations("hami.io/gpu-scheduler-policy", "topology-aware")
                .endMetadata()
                .build();
    }

    @Test
    void aPairAcrossIslandsWhileAnIslandWasFreeBreaksTheTopologyInvariant() throws Exception {
        String gpu2 = DeviceIds.uuid(Vendor.NVIDIA, NODE, 2);
        Pod pair = topologyAware(pod("pair-0", "Running", grant(GPU0, gpu2), 0, 1));
        var log = new SchedulingLog();
        log.add(new SchedulingLog.Bound("default/pair-0", NODE, S, 2 * S));

        Invariant topology = new SchedulingChecks(log, List.of(pair), BACKENDS).topology(nvlinkScenario());

        assertThat(topology.checked()).isEqualTo(1);
        assertThat(topology.violations())
                .containsExactly(
                        "default/pair-0 on gpu-0 got GPUs [0, 2] across islands while island [0, 1] had 2 free");

        // GPUs 1 and 3 held by others from before its attempt until after its bind: no island had a free pair.
        String gpu3 = DeviceIds.uuid(Vendor.NVIDIA, NODE, 3);
        log.add(new SchedulingLog.Bound("default/a", NODE, 0, S / 2));
        log.add(new SchedulingLog.Bound("default/b", NODE, 0, S / 2));
        var pods = List.of(pair, pod("a", "Running", grant(GPU1), 0, 1), pod("b", "Running", grant(gpu3), 0, 1));
        assertThat(new SchedulingChecks(log, pods, BACKENDS)
                        .topology(nvlinkScenario())
                        .holds())
                .isTrue();
    }

    @Test
    void theWaitRunsFromTheLastReleaseOfADeviceThePodGotToItsBind() {
        var log = new SchedulingLog();
        log.add(new SchedulingLog.Unschedulable("default/w", S));
        log.add(new SchedulingLog.Released("default/x", NODE, Map.of(ClusterFixtures.ALLOCATED, grant(GPU1)), 4 * S));
        log.add(new SchedulingLog.Released("default/h", NODE, Map.of(ClusterFixtures.ALLOCATED, grant(GPU0)), 5 * S));
        log.add(new SchedulingLog.Bound("default/w", NODE, 6 * S, 7 * S));
        Pod waiter = pod("w", "Running", grant(GPU0), 0, 1);

        ReleaseWaits waits = new SchedulingChecks(log, List.of(waiter), BACKENDS).releaseWaits();

        assertThat(waits.pods()).isEqualTo(1);
        assertThat(waits.max()).isEqualTo(Duration.ofSeconds(2));
        assertThat(waits.describe()).isEqualTo("1 pods, min 2.00 s, median 2.00 s, p95 2.00 s, max 2.00 s");
    }
}
