package io.hami.lab.report;

import io.hami.lab.check.Invariant;
import io.hami.lab.fault.FaultEvent;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.observe.PodState;
import io.hami.lab.observe.Sample;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything a finished run tells, for the console summary and the HTML report.
 *
 * @param scenario       scenario name
 * @param description    what the scenario shows
 * @param seed           the seed it ran with
 * @param startedAt      wall-clock start
 * @param setup          how long starting the cluster took
 * @param took           how long the workload part ran
 * @param nodes          nodes by kind: {@code with plugins}, {@code synthetic}
 * @param planned        pods the workload planned
 * @param states         pods per state at the end
 * @param rejected       pods the webhook denied, with its message
 * @param notCreated     pods that could not be created, with the error
 * @param unschedulable  kube-scheduler's message for the pods left unschedulable, with how many pods got it
 * @param failed         the reasons of failed pods, with how many
 * @param devices        every device's allocation
 * @param latencies      filter, prioritize, bind and Allocate latency
 * @param podsPerSecond  pods bound per second, from the start of the workload to the last bind
 * @param bindRetries    binds the extender refused or could not finish, other than for lock contention (retried)
 * @param contentions    binds refused because another pod held the node lock (retried)
 * @param apiErrors      API writes failed on purpose
 * @param faults         what the fault injector did
 * @param samples        the cluster over time
 * @param invariants     the invariant checks
 */
public record RunReport(String scenario, String description, long seed, Instant startedAt, Duration setup, Duration took,
                        Map<String, Integer> nodes, int planned, Map<PodState, Integer> states, Map<String, String> rejected,
                        Map<String, String> notCreated, Map<String, Integer> unschedulable, Map<String, Integer> failed,
                        List<DeviceRow> devices, Map<String, Latencies.Stats> latencies, double podsPerSecond,
                        int bindRetries, int contentions, int apiErrors, List<FaultEvent> faults, List<Sample> samples,
                        List<Invariant> invariants) {

    public boolean invariantsHold() {
        return invariants.stream().allMatch(Invariant::holds);
    }

    public int count(PodState state) {
        return states.getOrDefault(state, 0);
    }
}
