package io.hami.e2e.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The independent clients the tests run as programs: Debian's kubectl ({@code /usr/bin/kubectl}) and python3 with
 * python3-kubernetes ({@code scripts/install-test-deps.sh} installs both). stdout and stderr are kept apart.
 */
public final class Command {
    public static final Path KUBECTL = Path.of("/usr/bin/kubectl");
    public static final Path PYTHON = Path.of("/usr/bin/python3");

    /** What a program printed and how it ended. */
    public record Result(List<String> command, int exitCode, String stdout, String stderr) {
        /** Fails with everything printed unless it exited 0. */
        public Result ok() {
            if (exitCode != 0) {
                throw new AssertionError(String.join(" ", command) + " exited " + exitCode + "\nstdout:\n" + stdout
                        + "\nstderr:\n" + stderr);
            }
            return this;
        }
    }

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
                "--request-timeout=30s"));
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
        try {
            var pb = new ProcessBuilder(command);
            pb.environment().remove("KUBECONFIG");
            Process p = pb.start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            try (var in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in 120 s");
            }
            return new Result(List.copyOf(command), p.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
