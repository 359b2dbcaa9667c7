package io.hami.lab.cli;

import io.hami.lab.Lab;
import io.hami.lab.LabLogging;
import io.hami.lab.cluster.ControlPlaneKind;
import io.hami.lab.scenario.Scenario;
import io.hami.lab.scenario.ScenarioException;
import io.hami.lab.scenario.ScenarioLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code hami lab}: the whole system on mock hardware, driven by a scenario. */
@Command(
        name = "lab",
        mixinStandardHelpOptions = true,
        description = {
            "Run a scenario on mock hardware: an embedded API server, the real scheduler, real device plugins on "
                    + "C mock libraries, simulated kubelets and kube-scheduler. Prints progress and a summary, writes an HTML "
                    + "report, and exits 1 when an invariant fails.",
            "With --control-plane kubernetes, a real etcd, kube-apiserver and kube-scheduler (built once by "
                    + "scripts/control-plane.sh) replace the embedded API server and the simulated kube-scheduler; the API "
                    + "server calls the webhook.",
            "Bundled scenarios: default, faults, scale, scheduling."
        },
        subcommands = LabApiServerCommand.class)
public final class LabCommand implements Callable<Integer> {
    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(
            index = "0",
            arity = "0..1",
            defaultValue = "default",
            paramLabel = "SCENARIO",
            description = "A bundled scenario name or a scenario file. Default: ${DEFAULT-VALUE}.")
    String scenario;

    @Option(
            names = "--report-dir",
            paramLabel = "DIR",
            defaultValue = "lab-reports",
            description = "Where the HTML report and the components' log go. Default: ${DEFAULT-VALUE}.")
    Path reportDir;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of every random choice; default: the scenario's.")
    Long seed;

    @Option(
            names = "--pod-scale",
            paramLabel = "FACTOR",
            description = "Multiply every workload's pod count, for a quicker run (at least one pod each).")
    Double podScale;

    @Option(
            names = "--control-plane",
            paramLabel = "KIND",
            defaultValue = "embedded",
            description = {
                "embedded: the in-process API server and a simulated kube-scheduler (default).",
                "kubernetes: etcd, kube-apiserver and kube-scheduler of the pinned Kubernetes release on 127.0.0.1, with "
                        + "deploy/'s kube-scheduler configuration and webhook registration; their logs go next to the "
                        + "report. Needs the binaries of scripts/control-plane.sh (or HAMI_CONTROL_PLANE_BIN); runs one "
                        + "scheduler replica and no api-write-errors faults."
            })
    String controlPlane;

    @Override
    public Integer call() throws Exception {
        Scenario s;
        try {
            s = ScenarioLoader.resolve(scenario);
        } catch (ScenarioException e) {
            spec.commandLine().getErr().println("hami lab: " + e.getMessage());
            return 2;
        }
        if (seed != null) {
            s = s.withSeed(seed);
        }
        if (podScale != null) {
            if (!(podScale > 0)) {
                spec.commandLine().getErr().println("hami lab: --pod-scale must be above 0, got " + podScale);
                return 2;
            }
            s = s.scaled(podScale);
        }
        ControlPlaneKind kind;
        try {
            kind = ControlPlaneKind.of(controlPlane);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("hami lab: --control-plane: " + e.getMessage());
            return 2;
        }
        List<String> unsupported = Lab.unsupported(s, kind);
        if (!unsupported.isEmpty()) {
            unsupported.forEach(p -> spec.commandLine().getErr().println("hami lab: scenario " + scenario + ": " + p));
            return 2;
        }
        Files.createDirectories(reportDir);
        Path log = reportDir.resolve(s.name() + "-" + LOG_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)) + ".log");
        LabLogging.toFile(log);
        System.out.println("hami lab: component logs go to " + log);
        // Unix socket paths are limited to 108 bytes, so the nodes' folders go under a short temporary path.
        Path work = Files.createTempDirectory(Path.of("/tmp"), "hami-lab-");
        try {
            Lab.Result result = Lab.run(s, new Lab.Options(reportDir, work, System.out, kind));
            return result.report().invariantsHold() ? 0 : 1;
        } catch (Lab.LabException e) {
            System.err.println("hami lab: " + e.getMessage() + " (see " + log + ")");
            return 1;
        } catch (IllegalStateException e) {
            if (kind == ControlPlaneKind.EMBEDDED
                    || e.getMessage() == null
                    || !e.getMessage().startsWith("control plane:")) {
                throw e;
            }
            // The control plane could not be started (no binaries, a process that exited): its message says why.
            System.err.println("hami lab: " + e.getMessage() + " (see " + log + ")");
            return 1;
        } finally {
            deleteTree(work);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
