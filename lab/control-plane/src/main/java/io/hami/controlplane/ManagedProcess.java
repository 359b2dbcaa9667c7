package io.hami.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One control-plane binary (or, for e2e's real node, containerd and the kubelet) running with its output in a log
 * file; stopped with SIGTERM, then SIGKILL.
 */
public final class ManagedProcess implements AutoCloseable {
    private final String what;
    private final String name;
    private final Process process;
    private final Path log;
    private final Thread killOnExit;

    private ManagedProcess(String what, String name, Process process, Path log) {
        this.what = what;
        this.name = name;
        this.process = process;
        this.log = log;
        // A test JVM that dies must not leave an API server behind.
        this.killOnExit = new Thread(process::destroyForcibly, "stop-" + name);
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
        try {
            Files.createDirectories(log.getParent());
            var pb = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().remove("KUBECONFIG");
            pb.environment().putAll(env);
            return new ManagedProcess(what, name, pb.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException(what + ": cannot start " + command.getFirst(), e);
        }
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
        process.destroyForcibly();
        try {
            process.waitFor(15, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
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
