package io.hami.e2e.mixed;

import io.hami.e2e.support.DeployFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The table of one mixed-cluster run: each step, whether it held, and the annotation values it saw. Printed and
 * written to {@code e2e/target/mixed-cluster/<name>.md}, so that a run shows what crossed the wire, not only that it
 * passed.
 */
final class CrossRun {
    /** One step's check: returns the values it saw, throws when the step does not hold. */
    @FunctionalInterface
    interface Check {
        String run() throws Exception;
    }

    private record Step(String step, boolean pass, String values) {}

    private final String name;
    private final String title;
    private final List<Step> steps = new ArrayList<>();

    CrossRun(String name, String title) {
        this.name = name;
        this.title = title;
    }

    /** Runs {@code check} and records its outcome; a failure is recorded and rethrown. */
    synchronized void step(String step, Check check) throws Exception {
        try {
            steps.add(new Step(step, true, check.run()));
        } catch (Exception | AssertionError e) {
            steps.add(new Step(
                    step,
                    false,
                    String.valueOf(e.getMessage()).lines().findFirst().orElse("")));
            throw e;
        }
    }

    synchronized String markdown() {
        var b = new StringBuilder("### ").append(title).append("\n\n| step | result | values |\n|---|---|---|\n");
        for (Step s : steps) {
            b.append("| ")
                    .append(s.step())
                    .append(" | ")
                    .append(s.pass() ? "pass" : "FAIL")
                    .append(" | ")
                    .append(s.values().replace("|", "\\|"))
                    .append(" |\n");
        }
        return b.toString();
    }

    /** Where the run's processes write their logs: kept after the run, beside the table. */
    Path logs() {
        return DeployFiles.ROOT.resolve("e2e/target/mixed-cluster/" + name);
    }

    /** Prints the table and writes it beside the surefire reports. */
    void publish() {
        String table = markdown();
        System.out.println(table);
        Path file = DeployFiles.ROOT.resolve("e2e/target/mixed-cluster/" + name + ".md");
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, table);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
