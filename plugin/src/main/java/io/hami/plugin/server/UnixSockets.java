package io.hami.plugin.server;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.netty.shaded.io.netty.channel.EventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.MultiThreadIoEventLoopGroup;
import io.grpc.netty.shaded.io.netty.channel.epoll.Epoll;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollIoHandler;
import io.grpc.netty.shaded.io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.grpc.netty.shaded.io.netty.channel.unix.DomainSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * gRPC over Unix domain sockets with the epoll transport bundled in grpc-netty-shaded (docs/design.md#grpc-unix-sockets).
 * One pair of event-loop groups serves every socket of the process.
 */
public final class UnixSockets implements AutoCloseable {
    /** {@code sun_path} holds 108 bytes with the terminating NUL. */
    static final int MAX_PATH_BYTES = 107;

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;

    public UnixSockets() {
        if (!Epoll.isAvailable()) {
            throw new IllegalStateException(
                    "gRPC over Unix sockets needs Linux epoll, which is unavailable: " + Epoll.unavailabilityCause());
        }
        boss = new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(2, EpollIoHandler.newFactory());
    }

    /** A server for {@code service} on {@code socket}, not yet started, its calls on gRPC's shared executor. */
    public Server server(Path socket, BindableService service) {
        return builder(socket, service).build();
    }

    /** A server for {@code service} on {@code socket}, not yet started, its calls on {@code calls}. */
    public Server server(Path socket, BindableService service, Executor calls) {
        return builder(socket, service).executor(calls).build();
    }

    private NettyServerBuilder builder(Path socket, BindableService service) {
        return NettyServerBuilder.forAddress(address(socket))
                .channelType(EpollServerDomainSocketChannel.class)
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(workers)
                .addService(service);
    }

    /**
     * A client channel to {@code socket}. The authority is {@code localhost}, as the kubelet's own client sets
     * it, because some servers reject a socket path as authority.
     */
    public ManagedChannel channel(Path socket) {
        return NettyChannelBuilder.forAddress(address(socket))
                .channelType(EpollDomainSocketChannel.class)
                .eventLoopGroup(workers)
                .overrideAuthority("localhost")
                .usePlaintext()
                .build();
    }

    /** The socket's address, refused when the kernel could not bind it (netty's own error names no cause). */
    static DomainSocketAddress address(Path socket) {
        String path = socket.toString();
        int bytes = path.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_PATH_BYTES) {
            throw new IllegalArgumentException("Unix socket path " + path + " is " + bytes
                    + " bytes; the kernel allows at most " + MAX_PATH_BYTES + ": use a shorter directory");
        }
        return new DomainSocketAddress(path);
    }

    @Override
    public void close() {
        var unusedBoss = boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        var unusedWorkers = workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
