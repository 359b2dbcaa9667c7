package io.hami.plugin.server;

import io.grpc.BindableService;
import io.grpc.Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gRPC server of one resource on its socket in the device-plugin directory. A kubelet restart deletes the
 * socket, so the server can be started again on a fresh one.
 */
public final class ResourceServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceServer.class);
    /**
     * How long a stop waits for calls still running (an Allocate writing its outcome retries for up to 10 s): their
     * answers go out through the event loops, which the caller shuts next; a call outliving them would throw.
     */
    static final Duration HANDLER_GRACE = Duration.ofSeconds(12);

    private final Path socket;
    private final BindableService service;
    private final UnixSockets sockets;
    private Server server;
    /** The calls' threads, this server's own so that a stop can wait for them. */
    private ExecutorService handlers;

    public ResourceServer(Path socket, BindableService service, UnixSockets sockets) {
        this.socket = socket;
        this.service = service;
        this.sockets = sockets;
    }

    public Path socket() {
        return socket;
    }

    /** Serves on a fresh socket, stopping the previous server first (its close would unlink the new file). */
    public synchronized void start() {
        stop();
        try {
            Files.createDirectories(socket.getParent());
            Files.deleteIfExists(socket); // a stale file from a crashed run
            handlers = Executors.newCachedThreadPool(Thread.ofPlatform()
                    .name("grpc-" + socket.getFileName() + "-", 0)
                    .daemon()
                    .factory());
            server = sockets.server(socket, service, handlers).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve on " + socket + ": " + e.getMessage(), e);
        }
    }

    /** Whether the server runs and its socket file is still there. */
    public synchronized boolean isServing() {
        return server != null && !server.isShutdown() && Files.exists(socket);
    }

    /** Stops the server (open ListAndWatch streams end), waits for calls still running, and removes the socket. */
    @Override
    public synchronized void close() {
        stop();
    }

    private void stop() {
        if (server != null) {
            server.shutdownNow();
            try {
                server.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server = null;
        }
        if (handlers != null) {
            handlers.shutdown();
            try {
                if (!handlers.awaitTermination(HANDLER_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                    LOG.warn(
                            "{}: calls still running {} after the server stopped; their answers are lost",
                            socket,
                            HANDLER_GRACE);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            handlers = null;
        }
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove socket " + socket, e);
        }
    }
}
