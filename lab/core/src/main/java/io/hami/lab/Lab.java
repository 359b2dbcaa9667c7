package io.hami.lab;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.hami.lab.check.DeviceInventory;
import io.hami.lab.check.Invariant;
import io.hami.lab.check.InvariantChecker;
import io.hami.lab.check.ReleaseWaits;
import io.hami.lab.check.SchedulingChecks;
import io.hami.lab.check.WorkloadSettled;
import io.hami.lab.cluster.ControlPlaneKind;
import io.hami.lab.cluster.LabCluster;
import io.hami.lab.fault.FaultInjector;
import io.hami.lab.kubescheduler.ExtenderClient;
import io.hami.lab.kubescheduler.SchedulingProgress;
import io.hami.lab.kubescheduler.SimulatedScheduler;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.observe.ClusterObserver;
import io.hami.lab.observe.PodState;
import io.hami.lab.observe.Sample;
import io.hami.lab.report.ConsoleReport;
import io.hami.lab.report.HtmlReport;
import io.hami.lab.report.ReportBuilder;
import io.hami.lab.report.RunReport;
import io.hami.lab.scenario.DurationText;
import io.hami.lab.scenario.Fault;
import io.hami.lab.scenario.NodeSpec;
import io.hami.lab.scenario.Scenario;
import io.hami.lab.scenario.ScenarioException;
import io.hami.lab.usage.ContainerUsage;
import io.hami.lab.usage.ContainerWorkloads;
import io.hami.lab.usage.UsageRecorder;
import io.hami.lab.workload.AdmissionClient;
import io.hami.lab.workload.ArrivalPlan;
import io.hami.lab.workload.LabKeys;
import io.hami.lab.workload.PodPlan;
import io.hami.lab.workload.WorkloadDriver;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Runs a scenario: the cluster on mock hardware ({@link LabCluster}), the simulated kube-scheduler, the workload and
 * the faults; prints progress every second; ends when the workload has settled (or at the scenario's timeout);
 * checks the invariants against the API server; prints the summary and writes the HTML report.
 */
public final class Lab {
    private static final Duration PROGRESS = Duration.ofSeconds(1);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    /** Lines of a node monitor's {@code /metrics} the report shows. */
    private static final int EXCERPT_LINES = 12;
    /** As the report's file names: {@code <scenario>-<time>}. */
    private static final DateTimeFormatter FILE_TIME =
            DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    private Lab() {}

    /** Written in the report folder for the length of a run: the lab's API server, for kubectl and hami inspect. */
    public static final String KUBECONFIG = "lab.kubeconfig";

    /**
     * @param reportDir    where the HTML report and the run's kubeconfig go; null for none
     * @param workDir      where the nodes' device folders and sockets are made (short: Unix socket paths are limited)
     * @param out          progress and summary
     * @param controlPlane the embedded API server and simulated kube-scheduler, or the real ones
     */
    public record Options(Path reportDir, Path workDir, PrintStream out, ControlPlaneKind controlPlane) {
        public Options {
            controlPlane = controlPlane == null ? ControlPlaneKind.EMBEDDED : controlPlane;
        }
    }

    /** The report, and the HTML file when one was written. */
    public record Result(RunReport report, Path html) {}

    /** The cluster could not be brought up. */
    public static final class LabException extends Exception {
        public LabException(String message) {
            super(message);
        }
    }

    /**
     * What keeps {@code scenario} from running on {@code controlPlane}, one line each; empty when it can. Only the
     * embedded API server injects API errors, and the real kube-scheduler calls one scheduler replica.
     */
    public static List<String> unsupported(Scenario scenario, ControlPlaneKind controlPlane) {
        var problems = new ArrayList<String>();
        if (controlPlane != ControlPlaneKind.KUBERNETES) {
            return problems;
        }
        String option = "--control-plane " + controlPlane.option();
        for (Fault f : scenario.faults()) {
            if (f instanceof Fault.ApiWriteErrors) {
                problems.add("fault api-write-errors at " + DurationText.format(f.at())
                        + " needs the embedded API server, which " + "injects the errors; it cannot run with " + option
                        + " (use --control-plane embedded)");
            }
        }
        if (scenario.scheduler().replicas() > 1) {
            problems.add(
                    "scheduler.replicas is " + scenario.scheduler().replicas() + ", but " + option
                            + " runs one scheduler "
                            + "replica behind one kube-scheduler (leader-failover and several replicas need --control-plane embedded)");
        }
        return problems;
    }

    /**
     * Runs {@code scenario}.
     *
     * @throws ScenarioException when the scenario cannot run on the chosen control plane ({@link #unsupported})
     */
    public static Result run(Scenario scenario, Options options) throws Exception {
        List<String> unsupported = unsupported(scenario, options.controlPlane());
        if (!unsupported.isEmpty()) {
            throw new ScenarioException("scenario " + scenario.name() + ": " + String.join("; ", unsupported));
        }
        PrintStream out = options.out();
        DeviceBackends backends = DeviceBackends.load(DeviceConfig.DEFAULTS);
        DeviceInventory inventory = DeviceInventory.of(scenario);
        InvariantChecker checker = new InvariantChecker(inventory, backends);
        List<PodPlan> plans = ArrivalPlan.of(scenario);
        Latencies latencies = new Latencies();
        List<NodeSpec> nodes = scenario.nodeSpecs();
        long synthetic = nodes.stream().filter(NodeSpec::synthetic).count();
        out.printf(
                Locale.ROOT,
                "lab: scenario %s (seed %d): %d nodes (%d with plugins, %d synthetic), %d devices, %d pods, %d faults%n",
                scenario.name(),
                scenario.seed(),
                nodes.size(),
                nodes.size() - synthetic,
                synthetic,
                inventory.all().size(),
                plans.size(),
                scenario.faults().size());
        FaultInjector.plan(scenario.faults()).forEach(line -> out.println("  fault at " + line));

        Instant startedAt = Instant.now();
        long setupStart = System.nanoTime();
        RunReport report;
        String apiRequests = null;
        // The real control plane's folder stays with the report: its logs are what explains a run.
        Path controlPlaneDir = options.controlPlane() == ControlPlaneKind.EMBEDDED
                ? null
                : options.reportDir() == null
                        ? options.workDir().resolve("control-plane")
                        : options.reportDir()
                                .resolve(scenario.name() + "-" + FILE_TIME.format(startedAt) + "-control-plane");
        if (controlPlaneDir != null) {
            out.println("control plane: starting etcd, kube-apiserver and kube-scheduler; their logs go to "
                    + controlPlaneDir.resolve("logs"));
        }
        try (LabCluster cluster = new LabCluster(
                scenario, options.workDir(), backends, latencies, options.controlPlane(), controlPlaneDir)) {
            cluster.start();
            List<String> notReady = cluster.awaitReady(READY_TIMEOUT);
            if (!notReady.isEmpty()) {
                throw new LabException("nodes whose devices the scheduler cannot see after " + READY_TIMEOUT.toSeconds()
                        + "s: " + notReady);
            }
            Duration setup = Duration.ofNanos(System.nanoTime() - setupStart);
            out.printf(
                    Locale.ROOT,
                    "cluster ready in %.1fs: API server %s, %d scheduler replica(s); control plane: %s%n",
                    setup.toMillis() / 1000.0,
                    cluster.url(),
                    scenario.scheduler().replicas(),
                    cluster.description());
            if (options.reportDir() != null) {
                Path kubeconfig = cluster.writeKubeconfig(options.reportDir().resolve(KUBECONFIG));
                out.println("while it runs: ./hami inspect nodes --kubeconfig " + kubeconfig
                        + "   (or pods; kubectl works too)");
            }

            KubernetesClient labClient = cluster.newClient();
            createPriorityClasses(labClient, scenario);
            var json = labClient.getKubernetesSerialization();
            boolean embedded = cluster.kind() == ControlPlaneKind.EMBEDDED;
            // The real kube-scheduler and API server call the extender and the webhook themselves.
            try (var simulated = embedded
                            ? new SimulatedScheduler(
                                    cluster.newClient(),
                                    LabKeys.SCHEDULER_NAME,
                                    new ExtenderClient(json, cluster.schedulers()::endpoints, latencies),
                                    backends,
                                    scenario.scheduler().bindParallelism(),
                                    new SplittableRandom(scenario.seed()))
                            : null;
                    var observer = new ClusterObserver(
                            cluster.newClient(),
                            backends,
                            checker,
                            inventory.all().size());
                    var driver = new WorkloadDriver(
                            cluster.newClient(),
                            embedded ? new AdmissionClient(json, cluster.schedulers()::endpoints) : null,
                            plans,
                            scenario.priorityClasses());
                    var faults = new FaultInjector(
                            cluster,
                            scenario.faults(),
                            scenario.seed(),
                            backends.byVendor("NVIDIA").orElseThrow(),
                            e -> out.println("[" + DurationText.format(e.at()) + "] fault: "
                                    + (e.failed() ? "FAILED: " : "") + e.what()))) {
                SchedulingProgress kubeScheduler = embedded
                        ? simulated
                        : cluster.extenderActivity()
                                .progress(
                                        observer::sinceFreed,
                                        () -> observer.pods().stream()
                                                .filter(p -> PodState.of(p) == PodState.UNSCHEDULABLE)
                                                .toList());
                if (embedded) {
                    cluster.server().requests().reset();
                }
                var usage = new UsageRecorder();
                long start = System.nanoTime();
                driver.start(start);
                faults.start(start);
                Duration took;
                WorkloadSettled atTimeout = null;
                while (true) {
                    Thread.sleep(PROGRESS);
                    took = Duration.ofNanos(System.nanoTime() - start);
                    Sample s = observer.sample(took);
                    usage.sample(took, cluster.monitors().figures());
                    out.println(progress(s, driver, kubeScheduler, plans.size()));
                    WorkloadSettled state = settling(scenario, driver, faults, kubeScheduler, observer, s);
                    if (state.settled()) {
                        break;
                    }
                    if (took.compareTo(scenario.timeout()) > 0) {
                        atTimeout = state;
                        out.println("lab: timeout of " + DurationText.format(scenario.timeout())
                                + " reached; stopping with " + String.join(", ", state.moving()));
                        break;
                    }
                }
                List<Pod> pods = cluster.client().pods().inAnyNamespace().list().getItems();
                List<Node> nodeObjects = cluster.client().nodes().list().getItems();
                List<Sample> samples = observer.samples();

                var invariants = new ArrayList<Invariant>();
                Invariant capacity = checker.capacity(pods);
                var capacityViolations = new ArrayList<>(observer.capacityViolations());
                capacity.violations().forEach(v -> capacityViolations.add("at the end: " + v));
                invariants.add(new Invariant(
                        capacity.name(),
                        capacity.statement() + ", at any sample",
                        capacity.checked(),
                        capacityViolations));
                invariants.add(checker.envMatchesAllocation(pods, cluster.pluginNodeNames(), cluster.allocations()));
                invariants.add(checker.locksReleased(nodeObjects));
                invariants.add(checker.noneStuck(pods));
                invariants.add(checker.expectations(plans, pods, driver.rejected()));
                invariants.add(WorkloadSettled.invariant(scenario.timeout(), atTimeout));
                if (!faults.untrusted().isEmpty()) {
                    invariants.add(checker.untrusted(faults.untrusted(), pods, cluster.allocations()));
                }
                ReleaseWaits releaseWaits = ReleaseWaits.NONE;
                if (embedded) {
                    // The simulated kube-scheduler's record; the real one's queue and preemptions are not seen here.
                    var scheduling = new SchedulingChecks(simulated.log(), pods, backends);
                    if (plans.stream().anyMatch(p -> p.workload().podGroup() != null)) {
                        invariants.add(scheduling.gangs(plans));
                    }
                    if (!scenario.priorityClasses().isEmpty()) {
                        invariants.add(scheduling.preemptions());
                    }
                    if (nodes.stream()
                            .anyMatch(n -> n.group().devices().stream()
                                    .anyMatch(d -> !d.nvlink().isEmpty()))) {
                        invariants.add(scheduling.topology(scenario));
                    }
                    releaseWaits = scheduling.releaseWaits();
                }
                // The workloads write their last figures as they stop; one more scan, and the monitors must agree.
                ContainerWorkloads workloads = cluster.workloads();
                workloads.stopAll();
                cluster.monitors().scanNow();
                List<ContainerUsage> reported = cluster.monitors().figures();
                usage.sample(took, reported);
                List<ContainerWorkloads.Started> started = workloads.started();
                if (!started.isEmpty() || !workloads.problems().isEmpty()) {
                    invariants.add(checker.usage(started, workloads.lastWritten(), reported, workloads.problems()));
                }

                apiRequests =
                        embedded ? apiRequests(cluster.server().requests().snapshot(), kubeScheduler.bound()) : null;
                long lastBind = kubeScheduler.lastBindNanos();
                double seconds = lastBind == 0 ? 0 : (lastBind - start) / 1e9;
                var nodeKinds = new TreeMap<String, Integer>();
                nodeKinds.put("with plugins", (int) (nodes.size() - synthetic));
                nodeKinds.put("synthetic", (int) synthetic);
                report = new RunReport(
                        new RunReport.Run(
                                scenario.name(),
                                scenario.description(),
                                scenario.seed(),
                                startedAt,
                                setup,
                                took,
                                nodeKinds,
                                cluster.description(),
                                embedded ? RunReport.SIMULATED_LATENCIES : RunReport.EXTENDER_LATENCIES),
                        new RunReport.Pods(
                                plans.size(),
                                ReportBuilder.states(pods),
                                driver.rejected(),
                                driver.notCreated(),
                                ReportBuilder.unschedulable(pods),
                                ReportBuilder.failed(pods)),
                        new RunReport.Binds(
                                latencies.stats(),
                                seconds == 0 ? 0 : kubeScheduler.bound() / seconds,
                                kubeScheduler.bindFailures(),
                                kubeScheduler.contentions(),
                                kubeScheduler.failureCauses(),
                                releaseWaits),
                        ReportBuilder.devices(inventory, pods, samples, backends),
                        new RunReport.Chaos(cluster.injectedApiErrors(), faults.events()),
                        samples,
                        invariants,
                        new RunReport.Usage(
                                cluster.monitors().count(),
                                usage.series(started),
                                started.isEmpty()
                                        ? List.of()
                                        : cluster.monitors().scrapeExcerpt(EXCERPT_LINES)));
            }
        }
        ConsoleReport.print(report, out);
        if (apiRequests != null) {
            out.println(apiRequests);
        }
        if (controlPlaneDir != null) {
            out.println("control plane logs: " + controlPlaneDir.resolve("logs"));
        }
        Path html = options.reportDir() == null ? null : HtmlReport.write(report, options.reportDir());
        if (html != null) {
            out.println("report: " + html);
        }
        return new Result(report, html);
    }

    /** What the lab sees of the workload now, for the rule of {@link WorkloadSettled}. */
    private static WorkloadSettled settling(
            Scenario scenario,
            WorkloadDriver driver,
            FaultInjector faults,
            SchedulingProgress scheduler,
            ClusterObserver observer,
            Sample s) {
        int lifetimesLeft = (int) observer.pods().stream()
                .filter(p -> PodState.of(p) == PodState.RUNNING
                        && p.getMetadata().getAnnotations().containsKey(LabKeys.LIFETIME_MS))
                .count();
        return new WorkloadSettled(
                driver.done(),
                faults.done(),
                scheduler.busy(),
                s.count(PodState.PENDING),
                s.count(PodState.ALLOCATING),
                lifetimesLeft,
                observer.quietFor(),
                scenario.settle());
    }

    /**
     * The scenario's PriorityClasses, which its workloads name (kube-apiserver's Priority admission refuses a pod whose
     * class does not exist; the embedded API server stores them for kubectl).
     */
    private static void createPriorityClasses(KubernetesClient client, Scenario scenario) {
        scenario.priorityClasses()
                .forEach((name, value) -> client.resource(new PriorityClassBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .endMetadata()
                                .withValue(value)
                                .withPreemptionPolicy("PreemptLowerPriority")
                                .withDescription("lab scenario " + scenario.name())
                                .build())
                        .createOr(NonDeletingOperation::update));
    }

    /** The embedded API server's requests during the workload, most frequent first, and per pod bound. */
    static String apiRequests(Map<String, Long> counts, int bound) {
        long total = 0;
        for (long n : counts.values()) {
            total += n;
        }
        var b = new StringBuilder(String.format(
                Locale.ROOT,
                "API requests: %d (%.1f per pod bound):",
                total,
                bound == 0 ? 0.0 : (double) total / bound));
        var sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        for (Map.Entry<String, Long> e : sorted) {
            b.append(' ').append(e.getKey()).append(' ').append(e.getValue()).append(',');
        }
        b.setLength(b.length() - 1);
        return b.toString();
    }

    private static String progress(Sample s, WorkloadDriver driver, SchedulingProgress scheduler, int planned) {
        var b = new StringBuilder(String.format(
                Locale.ROOT, "[%6.1fs] pods %d/%d", s.at().toMillis() / 1000.0, driver.submittedCount(), planned));
        for (Map.Entry<PodState, Integer> e : new TreeMap<>(s.pods()).entrySet()) {
            b.append(" · ")
                    .append(e.getKey().label().toLowerCase(Locale.ROOT))
                    .append(' ')
                    .append(e.getValue());
        }
        b.append(" | bound ").append(scheduler.bound());
        if (!driver.rejected().isEmpty()) {
            b.append(" · rejected ").append(driver.rejected().size());
        }
        return b.toString();
    }
}
