package io.hami.controlplane;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One control-plane binary running with its output in a log file; stopped with SIGTERM, then SIGKILL. */
public final class ManagedProcess implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Path log;
    private final Thread killOnExit;

    private ManagedProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        // A test JVM that dies must not leave an API server behind.
        this.killOnExit = new Thread(process::destroyForcibly, "stop-" + name);
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    static ManagedProcess start(String name, List<String> command, Path log) {
        try {
            Files.createDirectories(log.getParent());
            var pb = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            pb.environment().remove("KUBECONFIG");
            return new ManagedProcess(name, pb.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("control plane: cannot start " + command.getFirst(), e);
        }
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Fails with the end of the log when the process has exited. */
    void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException("control plane: " + name + " exited with " + process.exitValue()
                    + "; last lines of " + log + ":\n" + tail(40));
        }
    }

    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
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
