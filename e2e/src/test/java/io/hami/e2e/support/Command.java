package io.hami.e2e.support;

import io.hami.deploy.tools.Program;
import io.hami.deploy.tools.Program.Result;
import io.hami.protocol.testing.Patience;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The independent clients the tests run as programs: Debian's kubectl ({@code /usr/bin/kubectl}) and python3 with
 * python3-kubernetes ({@code scripts/install-test-deps.sh} installs both), run by deploy's {@link Program}.
 */
public final class Command {
    public static final Path KUBECTL = Path.of("/usr/bin/kubectl");
    public static final Path PYTHON = Path.of("/usr/bin/python3");

    private Command() {}

    public static boolean kubectlInstalled() {
        return Files.isExecutable(KUBECTL);
    }

    /** Whether python3 can import the kubernetes client. */
    public static boolean pythonClientInstalled() {
        return Files.isExecutable(PYTHON)
                && run(List.of(PYTHON.toString(), "-c", "import kubernetes"), null)
                                .exitCode()
                        == 0;
    }

    /** kubectl with this kubeconfig and a private cache folder under {@code cache}. */
    public static Result kubectl(Path kubeconfig, Path cache, String... args) {
        var command = new ArrayList<>(List.of(
                KUBECTL.toString(),
                "--kubeconfig",
                kubeconfig.toString(),
                "--cache-dir",
                cache.toString(),
                "--request-timeout=" + Patience.seconds(30).toSeconds() + "s"));
        command.addAll(List.of(args));
        return run(command, null);
    }

    /** python3 running {@code script} with {@code args}. */
    public static Result python(Path script, String... args) {
        var command = new ArrayList<>(List.of(PYTHON.toString(), script.toString()));
        command.addAll(List.of(args));
        return run(command, null);
    }

    public static Result run(List<String> command, String stdin) {
        return Program.run(command, Map.of(), stdin, Patience.of(Duration.ofMinutes(2)));
    }
}
