package io.hami.e2e.mixed;

import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.ContainerAllocateRequest;
import io.hami.plugin.kubeletapi.DevicePluginGrpc;
import io.hami.plugin.kubeletapi.Empty;
import io.hami.plugin.kubeletapi.ListAndWatchResponse;
import io.hami.plugin.kubeletapi.RegisterRequest;
import io.hami.plugin.kubeletapi.RegistrationGrpc;
import io.hami.plugin.server.UnixSockets;
import io.hami.protocol.testing.Patience;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The kubelet's side of the device-plugin API for a plugin that is not ours: the Registration service on a private
 * {@code kubelet.sock}, and the calls the kubelet makes on the socket a plugin registered (its first ListAndWatch
 * answer, Allocate), in the folder where the kubelet looks for plugin sockets.
 */
final class TestKubelet implements AutoCloseable {
    private final UnixSockets sockets = new UnixSockets();
    private final Server server;
    private final Path pluginDir;
    private final List<RegisterRequest> registered = new CopyOnWriteArrayList<>();

    /** Serves Registration on {@code socket}; registered plugins' sockets are looked up in {@code pluginDir}. */
    TestKubelet(Path socket, Path pluginDir) throws java.io.IOException {
        this.pluginDir = pluginDir;
        this.server = sockets.server(socket, new RegistrationGrpc.RegistrationImplBase() {
                    @Override
                    public void register(RegisterRequest request, StreamObserver<Empty> response) {
                        registered.add(request);
                        response.onNext(Empty.getDefaultInstance());
                        response.onCompleted();
                    }
                })
                .start();
    }

    List<RegisterRequest> registered() {
        return List.copyOf(registered);
    }

    /** The devices the plugin registered for {@code resource} lists first (ListAndWatch's first answer). */
    ListAndWatchResponse devices(String resource) {
        var channel = sockets.channel(socketOf(resource));
        try {
            return DevicePluginGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(Patience.seconds(30))
                    .listAndWatch(Empty.getDefaultInstance())
                    .next();
        } finally {
            channel.shutdownNow();
        }
    }

    /** Allocate of kubelet devices {@code ids} for one container, on {@code resource}'s socket. */
    AllocateResponse allocate(String resource, List<String> ids) {
        var channel = sockets.channel(socketOf(resource));
        try {
            return DevicePluginGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(Patience.seconds(30))
                    .allocate(AllocateRequest.newBuilder()
                            .addContainerRequests(
                                    ContainerAllocateRequest.newBuilder().addAllDevicesIds(ids))
                            .build());
        } finally {
            channel.shutdownNow();
        }
    }

    private Path socketOf(String resource) {
        return registered.stream()
                .filter(r -> r.getResourceName().equals(resource))
                .map(r -> pluginDir.resolve(r.getEndpoint()))
                .reduce((first, last) -> last)
                .orElseThrow(() -> new IllegalStateException("no plugin registered " + resource));
    }

    @Override
    public void close() {
        server.shutdownNow();
        sockets.close();
    }
}
