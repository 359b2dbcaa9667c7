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
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * gRPC over Unix domain sockets with the epoll transport bundled in grpc-netty-shaded (docs/design.md#grpc-unix-sockets).
 * One pair of event-loop groups serves every socket of the process.
 */
public final class UnixSockets implements AutoCloseable {
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

    /** A server for {@code service} on {@code socket}, not yet started. */
    public Server server(Path socket, BindableService service) {
        return NettyServerBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .channelType(EpollServerDomainSocketChannel.class)
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(workers)
                .addService(service)
                .build();
    }

    /**
     * A client channel to {@code socket}. The authority is {@code localhost}, as the kubelet's own client sets
     * it, because some servers reject a socket path as authority.
     */
    public ManagedChannel channel(Path socket) {
        return NettyChannelBuilder.forAddress(new DomainSocketAddress(socket.toString()))
                .channelType(EpollDomainSocketChannel.class)
                .eventLoopGroup(workers)
                .overrideAuthority("localhost")
                .usePlaintext()
                .build();
    }

    @Override
    public void close() {
        var unusedBoss = boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        var unusedWorkers = workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }
}
