package io.hami.lab.report;

import io.hami.lab.check.Invariant;
import io.hami.lab.check.ReleaseWaits;
import io.hami.lab.fault.FaultEvent;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.observe.PodState;
import io.hami.lab.observe.Sample;
import io.hami.lab.usage.UsageSeries;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything a finished run tells, for the console summary and the HTML report.
 *
 * @param run        which scenario ran, how and for how long
 * @param pods       what became of the workload's pods
 * @param binds      how fast and how cleanly they were placed
 * @param devices    every device's allocation
 * @param chaos      the faults the run injected
 * @param samples    the cluster over time
 * @param invariants the invariant checks
 * @param usage      what the containers with a usage profile used, as the node monitors reported it
 */
public record RunReport(
        Run run,
        Pods pods,
        Binds binds,
        List<DeviceRow> devices,
        Chaos chaos,
        List<Sample> samples,
        List<Invariant> invariants,
        Usage usage) {
    /**
     * @param scenario      scenario name
     * @param description   what the scenario shows
     * @param seed          the seed it ran with
     * @param startedAt     wall-clock start
     * @param setup         how long starting the cluster took
     * @param took          how long the workload part ran
     * @param nodes         nodes by kind: {@code with plugins}, {@code synthetic}
     * @param controlPlane  which API server and kube-scheduler ran
     * @param latencySource where the filter and bind latencies were measured
     */
    public record Run(
            String scenario,
            String description,
            long seed,
            Instant startedAt,
            Duration setup,
            Duration took,
            Map<String, Integer> nodes,
            String controlPlane,
            String latencySource) {}

    /**
     * @param planned       pods the workload planned
     * @param states        pods per state at the end
     * @param rejected      pods the webhook denied, with its message
     * @param notCreated    pods that could not be created, with the error
     * @param unschedulable kube-scheduler's message for the pods left unschedulable, with how many pods got it
     * @param failed        the reasons of failed pods, with how many
     */
    public record Pods(
            int planned,
            Map<PodState, Integer> states,
            Map<String, String> rejected,
            Map<String, String> notCreated,
            Map<String, Integer> unschedulable,
            Map<String, Integer> failed) {}

    /**
     * @param latencies     filter, prioritize, bind and Allocate latency
     * @param podsPerSecond pods bound per second, from the start of the workload to the last bind
     * @param retries       binds the extender refused or could not finish, other than for lock contention (retried)
     * @param contentions   binds refused because another pod held the node lock (retried)
     * @param failureCauses the other refused binds (and failed filters) by cause, the error text with pod, node and
     *                      time folded out, most frequent first
     * @param releaseWaits  how long pods found unschedulable waited, after the devices they then got were released,
     *                      until they were bound (measured by the simulated kube-scheduler; none on the real one)
     */
    public record Binds(
            Map<String, Latencies.Stats> latencies,
            double podsPerSecond,
            int retries,
            int contentions,
            Map<String, Integer> failureCauses,
            ReleaseWaits releaseWaits) {
        public Binds {
            releaseWaits = releaseWaits == null ? ReleaseWaits.NONE : releaseWaits;
        }
    }

    /**
     * @param apiErrors API writes failed on purpose
     * @param faults    what the fault injector did
     */
    public record Chaos(int apiErrors, List<FaultEvent> faults) {}

    /**
     * @param monitors how many node monitors ran (one per node with NVIDIA devices)
     * @param series   per container with a workload and per GPU, its memory over time against its limit
     * @param scrapeExcerpt one container's lines of a monitor's {@code /metrics}, scraped over HTTP at the end
     */
    public record Usage(int monitors, List<UsageSeries> series, List<String> scrapeExcerpt) {
        public static final Usage NONE = new Usage(0, List.of(), List.of());

        public Usage {
            series = List.copyOf(series);
            scrapeExcerpt = List.copyOf(scrapeExcerpt);
        }
    }

    /** How the embedded run measures: the simulated kube-scheduler times its own HTTP calls. */
    public static final String SIMULATED_LATENCIES =
            "Measured by the simulated kube-scheduler around its HTTP calls to the "
                    + "extender (bind: the binds that bound their pod; bind refused: those the extender turned down, for example "
                    + "for node-lock contention), and by the simulated kubelets around their Allocate calls that granted devices.";
    /** How a run on the real control plane measures: kube-scheduler's calls are timed by the extender itself. */
    public static final String EXTENDER_LATENCIES =
            "Filter and bind: measured inside the extender by the scheduler's own "
                    + "filter and bind observers (those behind its Prometheus histograms) for every call the real kube-scheduler made, "
                    + "without the HTTPS round trip and the JSON (bind: the binds that bound their pod; bind refused: those the "
                    + "extender turned down, for example for node-lock contention); kube-scheduler's prioritize calls are not timed. "
                    + "Allocate: by the simulated kubelets around their Allocate calls that granted devices.";

    public boolean invariantsHold() {
        return invariants.stream().allMatch(Invariant::holds);
    }

    public int count(PodState state) {
        return pods.states().getOrDefault(state, 0);
    }
}
