package io.hami.lab.check;

import static io.hami.lab.check.ClusterFixtures.GPU0;
import static io.hami.lab.check.ClusterFixtures.GPU1;
import static io.hami.lab.check.ClusterFixtures.NODE;
import static io.hami.lab.check.ClusterFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.lab.fault.UntrustedPod;
import io.hami.lab.kubelet.AllocationLog;
import io.hami.lab.kubelet.ContainerAllocation;
import io.hami.lab.scenario.Scenario;
import io.hami.lab.workload.ArrivalPlan;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InvariantCheckerTest {
    private InvariantChecker checker;

    @BeforeEach
    void setUp() throws Exception {
        Scenario s = ClusterFixtures.scenario();
        checker = new InvariantChecker(DeviceInventory.of(s), DeviceBackends.load(DeviceConfig.DEFAULTS));
    }

    @Test
    void capacityHoldsForPodsThatFitTogether() {
        Pod a = pod("a", "Running", GPU0 + ",NVIDIA,20000,50:;", 0, 1);
        Pod b = pod("b", "Running", GPU0 + ",NVIDIA,20960,50:;", 0, 1);

        Invariant result = checker.capacity(List.of(a, b));

        assertThat(result.holds()).as(result.violations().toString()).isTrue();
        assertThat(result.checked()).isEqualTo(2);
    }

    @Test
    void overcommittedMemoryCoresAndTasksAreEachReported() {
        Pod a = pod("a", "Running", GPU0 + ",NVIDIA,30000,60:;", 0, 1);
        Pod b = pod("b", "Running", GPU0 + ",NVIDIA,20000,60:;", 0, 1);
        Pod c = pod("c", "Pending", GPU0 + ",NVIDIA,1,0:;", 0, 1);

        Invariant result = checker.capacity(List.of(a, b, c));

        assertThat(result.holds()).isFalse();
        assertThat(result.violations())
                .containsExactlyInAnyOrder(
                        NODE + " " + GPU0 + ": 50001 MiB allocated of 40960",
                        NODE + " " + GPU0 + ": 120 cores allocated of 100",
                        NODE + " " + GPU0 + ": 3 tasks share it, split count 2");
    }

    @Test
    void finishedPodsHoldNothing() {
        Pod done = pod("done", "Succeeded", GPU0 + ",NVIDIA,40960,100:;", 0, 1);
        Pod running = pod("run", "Running", GPU0 + ",NVIDIA,40960,100:;", 0, 1);

        assertThat(checker.capacity(List.of(done, running)).holds()).isTrue();
    }

    @Test
    void initContainersCountAtTheirPeakUntilTheyComplete() {
        // init takes 30000, the app 20000: together the pod holds 30000 while the init container may run.
        Pod first = pod("first", "Pending", GPU0 + ",NVIDIA,30000,0:;" + GPU0 + ",NVIDIA,20000,0:;", 1, 1);
        Pod other = pod("other", "Running", GPU0 + ",NVIDIA,15000,0:;", 0, 1);

        assertThat(checker.capacity(List.of(first, other)).violations())
                .containsExactly(NODE + " " + GPU0 + ": 45000 MiB allocated of 40960");
        assertThat(checker.capacity(List.of(ClusterFixtures.initDone(first), other))
                        .holds())
                .isTrue();
    }

    @Test
    void anAllocationOnADeviceTheNodeLacksIsReported() {
        Pod ghost = pod("ghost", "Running", "GPU-not-here,NVIDIA,1000,0:;", 0, 1);

        assertThat(checker.capacity(List.of(ghost)).violations())
                .containsExactly(NODE + ": pods hold device GPU-not-here, which the node does not have");
    }

    @Test
    void grantsMatchWhenEveryContainerGotItsDevices() {
        Pod p = pod("p", "Running", ";" + GPU0 + ",NVIDIA,3000,30:" + GPU1 + ",NVIDIA,5000,30:;", 1, 1);
        var log = new AllocationLog();
        log.add(allocation(
                p,
                1,
                Map.of(
                        "NVIDIA_VISIBLE_DEVICES",
                        GPU0 + "," + GPU1,
                        "CUDA_DEVICE_MEMORY_LIMIT_0",
                        "3000m",
                        "CUDA_DEVICE_MEMORY_LIMIT_1",
                        "5000m",
                        "CUDA_DEVICE_SM_LIMIT",
                        "30")));

        Invariant result = checker.envMatchesAllocation(List.of(p), Set.of(NODE), log);

        assertThat(result.holds()).as(result.violations().toString()).isTrue();
        assertThat(result.checked()).isEqualTo(1);
    }

    @Test
    void aContainerGivenAnotherLimitOrNothingIsReported() {
        Pod wrong = pod("wrong", "Running", GPU0 + ",NVIDIA,3000,30:;", 0, 1);
        Pod missed = pod("missed", "Succeeded", GPU1 + ",NVIDIA,1000,0:;", 0, 1);
        var log = new AllocationLog();
        log.add(allocation(
                wrong,
                0,
                Map.of(
                        "NVIDIA_VISIBLE_DEVICES",
                        GPU0,
                        "CUDA_DEVICE_MEMORY_LIMIT_0",
                        "4000m",
                        "CUDA_DEVICE_SM_LIMIT",
                        "30")));

        Invariant result = checker.envMatchesAllocation(List.of(wrong, missed), Set.of(NODE), log);

        assertThat(result.violations())
                .containsExactlyInAnyOrder(
                        "default/wrong container c-0 (NVIDIA): CUDA_DEVICE_MEMORY_LIMIT_0=4000m, want 3000m",
                        "default/missed container c-0: granted 1 NVIDIA device(s) but Allocate never served it");
    }

    @Test
    void aLockLeftOnANodeIsReported() {
        var locked = ClusterFixtures.node(Map.of(ProtocolKeys.NODE_LOCK, "2026-01-01T00:00:00Z,default,p"));
        var free = ClusterFixtures.node(Map.of());

        assertThat(checker.locksReleased(List.of(free)).holds()).isTrue();
        assertThat(checker.locksReleased(List.of(locked)).violations())
                .containsExactly(NODE + " is still locked: 2026-01-01T00:00:00Z,default,p");
    }

    @Test
    void podsLeftAllocatingOrBoundButNotStartedAreStuck() {
        Pod allocating = new PodBuilder(pod("alloc", "Pending", GPU0 + ",NVIDIA,1000,0:;", 0, 1))
                .editMetadata()
                .addToAnnotations(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING)
                .endMetadata()
                .build();
        Pod bound = pod("bound", "Pending", GPU0 + ",NVIDIA,1000,0:;", 0, 1);
        Pod failed = new PodBuilder(allocating)
                .editMetadata()
                .withName("failed")
                .endMetadata()
                .editStatus()
                .withPhase("Failed")
                .endStatus()
                .build();

        assertThat(checker.noneStuck(List.of(allocating, bound, failed)).violations())
                .containsExactly(
                        "default/alloc is still allocating on " + NODE,
                        "default/bound is bound to " + NODE + " but still Pending");
    }

    @Test
    void expectationsCompareEachPodsOutcome() throws Exception {
        Scenario s = io.hami.lab.scenario.ScenarioLoader.parse("""
                name: expect
                nodes: [{name: gpu, devices: [{vendor: nvidia, model: A100, memory: 1000}]}]
                workloads:
                  - {name: ok, count: 1, expect: running, containers: [{name: c}]}
                  - {name: big, count: 1, expect: unschedulable, containers: [{name: c}]}
                  - {name: bad, count: 1, expect: rejected, containers: [{name: c}]}
                """, "expect.yaml");
        Pod ok = pod("ok-0", "Succeeded", "", 0, 1);
        Pod big = new PodBuilder(pod("big-0", "Running", "", 0, 1)).build();

        Invariant result = checker.expectations(ArrivalPlan.of(s), List.of(ok, big), Map.of());

        assertThat(result.checked()).isEqualTo(3);
        assertThat(result.violations())
                .containsExactlyInAnyOrder(
                        "big-0 (workload big): expected unschedulable, got Running",
                        "bad-0 (workload bad): expected rejected, got missing");
    }

    @Test
    void untrustedPodsThatNeverRanAndAQuickTakeoverHold() {
        Pod selfGrant = pod("self", "Failed", GPU0 + ",NVIDIA,3000,10:;", 0, 1);
        Pod rejected = pod("rejected", "Failed", GPU0 + ",NVIDIA,3000,10:;", 0, 1);
        var untrusted = List.of(
                new UntrustedPod("self-grant", "default/self", "uid-self", NODE, null),
                new UntrustedPod("kubelet-rejects", "default/rejected", "uid-rejected", NODE, Duration.ofMillis(800)));

        Invariant result = checker.untrusted(untrusted, List.of(selfGrant, rejected), new AllocationLog());

        assertThat(result.holds()).as(result.violations().toString()).isTrue();
        assertThat(result.checked()).isEqualTo(2);
    }

    @Test
    void anUntrustedPodServedRunningOrALockThatStalledIsEachReported() {
        Pod served = pod("served", "Running", GPU0 + ",NVIDIA,3000,10:;", 0, 1);
        Pod stalled = pod("stalled", "Failed", GPU0 + ",NVIDIA,3000,10:;", 0, 1);
        var log = new AllocationLog();
        log.add(allocation(served, 0, Map.of("CUDA_DEVICE_MEMORY_LIMIT_0", "3000m")));
        var untrusted = List.of(
                new UntrustedPod("self-grant", "default/served", "uid-served", NODE, null),
                new UntrustedPod("kubelet-rejects", "default/stalled", "uid-stalled", NODE, Duration.ofSeconds(30)),
                new UntrustedPod("kubelet-rejects", "default/gone", "uid-gone", NODE, null));

        Invariant result = checker.untrusted(untrusted, List.of(served, stalled), log);

        assertThat(result.violations())
                .containsExactly(
                        "default/served (self-grant): Allocate served it [nvidia.com/gpu [id-0]]",
                        "default/served (self-grant): ended Running, not Failed",
                        NODE + ": the lock of rejected pod default/stalled moved on after 30000 ms, not within 10 s",
                        NODE + ": the lock of rejected pod default/gone moved on never, not within 10 s");
    }

    private static ContainerAllocation allocation(Pod pod, int index, Map<String, String> env) {
        return new ContainerAllocation(
                new ContainerAllocation.ContainerRef(
                        pod.getMetadata().getUid(),
                        "default/" + pod.getMetadata().getName(),
                        NODE,
                        index,
                        "c"),
                "nvidia.com/gpu",
                List.of("id-0"),
                new ContainerAllocation.Answer(env, List.of(), List.of()),
                Duration.ofMillis(1));
    }
}
