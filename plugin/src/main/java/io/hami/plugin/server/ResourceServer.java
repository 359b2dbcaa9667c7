package io.hami.plugin.server;

import io.grpc.BindableService;
import io.grpc.Server;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * The gRPC server of one resource on its socket in the device-plugin directory. A kubelet restart deletes the
 * socket, so the server can be started again on a fresh one.
 */
public final class ResourceServer implements AutoCloseable {
    private final Path socket;
    private final BindableService service;
    private final UnixSockets sockets;
    private Server server;

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
            server = sockets.server(socket, service).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve on " + socket + ": " + e.getMessage(), e);
        }
    }

    /** Whether the server runs and its socket file is still there. */
    public synchronized boolean isServing() {
        return server != null && !server.isShutdown() && Files.exists(socket);
    }

    /** Stops the server (open ListAndWatch streams end) and removes the socket. */
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
        try {
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove socket " + socket, e);
        }
    }
}
