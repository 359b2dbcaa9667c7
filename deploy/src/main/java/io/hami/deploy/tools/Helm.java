package io.hami.deploy.tools;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The real {@code helm} that {@code scripts/helm.sh} builds (helm v3.22.0 from its Go module, cached under
 * {@code ~/.cache/hami-java/helm}), for deploy's chart test and e2e's install test.
 */
public final class Helm {
    private static Optional<Path> located;
    private static String unavailable;

    private Helm() {}

    /** The chart, {@code deploy/helm/hami-java} of the repository. */
    public static Path chart(Path repository) {
        return repository.resolve("deploy/helm/hami-java");
    }

    /**
     * The helm binary, built by the repository's script on first use; empty only where it cannot be built (no Go
     * toolchain), the reason then in {@link #unavailableReason()}. A failing build fails the caller.
     */
    public static synchronized Optional<Path> binary(Path repository) {
        if (located == null) {
            String script = repository.resolve("scripts/helm.sh").toString();
            Program.Result cached =
                    Program.run(List.of("bash", script, "--path"), Map.of(), null, Duration.ofSeconds(30));
            if (cached.exitCode() == 0) {
                located = Optional.of(lastLine(cached.stdout()));
            } else if (!goOnPath()) {
                located = Optional.empty();
                unavailable = "helm cannot be built here: " + cached.stderr().strip()
                        + ", and the Go toolchain scripts/helm.sh builds it with is not on PATH";
            } else {
                Program.Result built = Program.run(List.of("bash", script), Map.of(), null, Duration.ofMinutes(30))
                        .ok();
                located = Optional.of(lastLine(built.stdout()));
            }
        }
        return located;
    }

    public static synchronized String unavailableReason() {
        return unavailable;
    }

    /**
     * {@code helm ARGS...} with the binary {@link #binary} found, its own cache and configuration under {@code home},
     * against {@code kubeconfig} (null: none).
     */
    public static Program.Result run(Path home, Path kubeconfig, String... args) {
        Path binary;
        synchronized (Helm.class) {
            if (located == null) {
                throw new IllegalStateException("helm is located by Helm.binary(repository) first");
            }
            binary = located.orElseThrow(() -> new IllegalStateException(unavailable));
        }
        var command = new ArrayList<>(List.of(binary.toString()));
        if (kubeconfig != null) {
            command.addAll(List.of("--kubeconfig", kubeconfig.toString()));
        }
        command.addAll(List.of(args));
        Map<String, String> env = Map.of(
                "HELM_CACHE_HOME", home.resolve("cache").toString(),
                "HELM_CONFIG_HOME", home.resolve("config").toString(),
                "HELM_DATA_HOME", home.resolve("data").toString());
        return Program.run(command, env, null, Duration.ofMinutes(2));
    }

    private static boolean goOnPath() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "go"))) {
                return true;
            }
        }
        return false;
    }

    private static Path lastLine(String text) {
        return Path.of(text.strip().lines().toList().getLast().strip());
    }
}
