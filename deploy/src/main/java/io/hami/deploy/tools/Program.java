package io.hami.deploy.tools;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs a program the tests use (helm, kubectl, python3) with stdout and stderr kept apart, never with the caller's
 * {@code KUBECONFIG}.
 */
public final class Program {
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

    private Program() {}

    /** {@code command} with {@code env} added to this process's environment and {@code stdin} (null: none). */
    public static Result run(List<String> command, Map<String, String> env, String stdin, Duration timeout) {
        try {
            var pb = new ProcessBuilder(command);
            pb.environment().remove("KUBECONFIG");
            pb.environment().putAll(env);
            Process p = pb.start();
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
            try (var in = p.getOutputStream()) {
                if (stdin != null) {
                    in.write(stdin.getBytes(StandardCharsets.UTF_8));
                }
            }
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError(
                        String.join(" ", command) + " did not finish in " + timeout.toSeconds() + " s");
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
