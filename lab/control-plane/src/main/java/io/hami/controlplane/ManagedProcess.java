package io.hami.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One control-plane binary (or, for e2e's real node, containerd and the kubelet) running with its output in a log
 * file; stopped with SIGTERM, then SIGKILL. After {@link #kill} (a crash) it can be {@link #restart restarted}: the
 * same command, environment and log.
 */
public final class ManagedProcess implements AutoCloseable {
    private final String what;
    private final String name;
    private final List<String> command;
    private final Map<String, String> env;
    private final Path log;
    private final Thread killOnExit;
    private volatile Process process;
    private boolean closed;

    private ManagedProcess(
            String what, String name, List<String> command, Map<String, String> env, Process process, Path log) {
        this.what = what;
        this.name = name;
        this.command = List.copyOf(command);
        this.env = Map.copyOf(env);
        this.process = process;
        this.log = log;
        // A test JVM that dies must not leave an API server behind (nor the process a restart started).
        this.killOnExit = new Thread(() -> this.process.destroyForcibly(), "stop-" + name);
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    static ManagedProcess start(String name, List<String> command, Path log) {
        return start("control plane", name, command, log, Map.of());
    }

    /**
     * Starts {@code command} without the caller's KUBECONFIG, with {@code env} added; {@code what} prefixes its
     * error messages (what the process is part of).
     */
    public static ManagedProcess start(
            String what, String name, List<String> command, Path log, Map<String, String> env) {
        return new ManagedProcess(what, name, command, env, launch(what, command, log, env), log);
    }

    private static Process launch(String what, List<String> command, Path log, Map<String, String> env) {
        try {
            Files.createDirectories(log.getParent());
            var pb = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().remove("KUBECONFIG");
            pb.environment().putAll(env);
            return pb.start();
        } catch (IOException e) {
            throw new UncheckedIOException(what + ": cannot start " + command.getFirst(), e);
        }
    }

    /**
     * Starts the same command again, with the same environment, its output appended to the same log after a line
     * that marks the restart. Only after it stopped ({@link #kill}, or it exited): a restart is a new process, not a
     * signal to the running one.
     *
     * @throws IllegalStateException while it still runs, or after {@link #close}
     */
    public synchronized void restart() {
        if (closed) {
            throw new IllegalStateException(what + ": " + name + " was closed");
        }
        if (process.isAlive()) {
            throw new IllegalStateException(what + ": " + name + " is still running (pid " + process.pid() + ")");
        }
        try {
            Files.writeString(
                    log,
                    "---- " + name + " started again at " + Instant.now() + " (the last one exited with "
                            + process.exitValue() + ") ----\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(what + ": cannot write " + log, e);
        }
        process = launch(what, command, log, env);
    }

    /** The operating system's id of the process running now. */
    public long pid() {
        return process.pid();
    }

    public String name() {
        return name;
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Fails with the end of the log when the process has exited. */
    public void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(what + ": " + name + " exited with " + process.exitValue()
                    + "; last lines of " + log + ":\n" + tail(40));
        }
    }

    public String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }

    /** SIGKILL at once (a crash, not a shutdown); {@link #close} afterwards only reaps it. */
    public void kill() {
        Process process = this.process;
        process.destroyForcibly();
        try {
            process.waitFor(15, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        Process process = this.process;
        process.destroy();
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
    }
}
