package io.hami.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.check.Invariant;
import io.hami.lab.cluster.ControlPlaneKind;
import io.hami.lab.scenario.Scenario;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Runs a scenario for a test: nodes under a short temporary folder (Unix socket paths are limited), console captured. */
final class ScenarioRuns {
    private ScenarioRuns() {}

    record Run(Lab.Result result, String console) {}

    static Run run(Scenario scenario, Path reports) throws Exception {
        return run(scenario, reports, ControlPlaneKind.EMBEDDED);
    }

    static Run run(Scenario scenario, Path reports, ControlPlaneKind controlPlane) throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "lab-test-");
        var console = new ByteArrayOutputStream();
        try (var out = new PrintStream(console, true, StandardCharsets.UTF_8)) {
            Lab.Result result = Lab.run(scenario, new Lab.Options(reports, work, out, controlPlane));
            System.out.print(console.toString(StandardCharsets.UTF_8));
            return new Run(result, console.toString(StandardCharsets.UTF_8));
        } finally {
            try (Stream<Path> paths = Files.walk(work)) {
                for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    static void assertInvariantsHold(Lab.Result result) {
        for (Invariant i : result.report().invariants()) {
            assertThat(i.violations())
                    .as("invariant " + i.name() + ": " + i.statement())
                    .isEmpty();
        }
    }
}
