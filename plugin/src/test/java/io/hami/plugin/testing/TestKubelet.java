package io.hami.plugin.testing;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.ContainerAllocateRequest;
import io.hami.plugin.kubeletapi.ContainerPreferredAllocationRequest;
import io.hami.plugin.kubeletapi.DevicePluginGrpc;
import io.hami.plugin.kubeletapi.DevicePluginOptions;
import io.hami.plugin.kubeletapi.Empty;
import io.hami.plugin.kubeletapi.ListAndWatchResponse;
import io.hami.plugin.kubeletapi.PreferredAllocationRequest;
import io.hami.plugin.kubeletapi.PreferredAllocationResponse;
import io.hami.plugin.kubeletapi.RegisterRequest;
import io.hami.plugin.kubeletapi.RegistrationGrpc;
import io.hami.plugin.server.UnixSockets;
import io.hami.protocol.testing.Patience;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The kubelet's side of the device-plugin API for tests, as the real device manager behaves: it serves
 * {@code Registration} on {@code kubelet.sock}; inside Register it dials the plugin's endpoint and asks for its
 * options, then opens ListAndWatch in the background and keeps the last list per resource. A restart removes
 * every socket in the directory and serves a new {@code kubelet.sock}, as a real kubelet start does.
 */
public final class TestKubelet implements AutoCloseable {
    private final Path dir;
    private final UnixSockets sockets = new UnixSockets();
    private final List<RegisterRequest> registrations = new CopyOnWriteArrayList<>();
    private final Map<String, DevicePluginOptions> options = new ConcurrentHashMap<>();
    private final Map<String, ListAndWatchResponse> lists = new ConcurrentHashMap<>();
    private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
    private Server server;

    public TestKubelet(Path dir) {
        this.dir = dir;
    }

    public Path socket() {
        return dir.resolve("kubelet.sock");
    }

    public synchronized TestKubelet start() {
        try {
            Files.createDirectories(dir);
            server = sockets.server(socket(), new RegistrationGrpc.RegistrationImplBase() {
                        @Override
                        public void register(RegisterRequest request, StreamObserver<Empty> response) {
                            try {
                                connect(request);
                                registrations.add(request);
                                response.onNext(Empty.getDefaultInstance());
                                response.onCompleted();
                            } catch (RuntimeException e) {
                                response.onError(io.grpc.Status.UNAVAILABLE
                                        .withDescription(e.getMessage())
                                        .asException());
                            }
                        }
                    })
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    private void connect(RegisterRequest request) {
        ManagedChannel old = channels.remove(request.getResourceName());
        if (old != null) {
            old.shutdownNow();
        }
        ManagedChannel channel = sockets.channel(dir.resolve(request.getEndpoint()));
        channels.put(request.getResourceName(), channel);
        options.put(
                request.getResourceName(),
                DevicePluginGrpc.newBlockingStub(channel)
                        .withDeadlineAfter(Patience.seconds(10))
                        .getDevicePluginOptions(Empty.getDefaultInstance()));
        // Not in the Register call's context, which is cancelled when Register returns.
        io.grpc.Context.ROOT.run(() -> DevicePluginGrpc.newStub(channel)
                .listAndWatch(Empty.getDefaultInstance(), new StreamObserver<>() {
                    @Override
                    public void onNext(ListAndWatchResponse list) {
                        synchronized (lists) {
                            lists.put(request.getResourceName(), list);
                            lists.notifyAll();
                        }
                    }

                    @Override
                    public void onError(Throwable t) {
                        // the plugin went away; the kubelet waits for it to register again
                    }

                    @Override
                    public void onCompleted() {}
                }));
    }

    public List<RegisterRequest> registrations() {
        return List.copyOf(registrations);
    }

    public DevicePluginOptions options(String resource) {
        return options.get(resource);
    }

    /** Waits until the last list of {@code resource} satisfies {@code condition}, for at most {@code timeout}. */
    public ListAndWatchResponse awaitList(
            String resource, Predicate<ListAndWatchResponse> condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lists) {
            while (true) {
                ListAndWatchResponse list = lists.get(resource);
                if (list != null && condition.test(list)) {
                    return list;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("no ListAndWatch list of " + resource + " as expected within " + timeout
                            + "; last: " + list);
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lists, left); // woken by each list the plugin sends
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
        }
    }

    public DevicePluginGrpc.DevicePluginBlockingStub plugin(String resource) {
        ManagedChannel channel = channels.get(resource);
        if (channel == null) {
            throw new AssertionError(resource + " never registered");
        }
        return DevicePluginGrpc.newBlockingStub(channel).withDeadlineAfter(Patience.seconds(30));
    }

    /** One Allocate with one container request of {@code ids}. */
    public AllocateResponse allocate(String resource, List<String> ids) {
        return plugin(resource)
                .allocate(AllocateRequest.newBuilder()
                        .addContainerRequests(
                                ContainerAllocateRequest.newBuilder().addAllDevicesIds(ids))
                        .build());
    }

    public PreferredAllocationResponse prefer(
            String resource, List<String> available, List<String> mustInclude, int size) {
        return plugin(resource)
                .getPreferredAllocation(PreferredAllocationRequest.newBuilder()
                        .addContainerRequests(ContainerPreferredAllocationRequest.newBuilder()
                                .addAllAvailableDeviceIDs(available)
                                .addAllMustIncludeDeviceIDs(mustInclude)
                                .setAllocationSize(size))
                        .build());
    }

    /** Stops, removes every socket of the directory (a starting kubelet cleans it) and serves again. */
    public synchronized void restart() {
        stopServer();
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                if (f.getFileName().toString().endsWith(".sock")) {
                    Files.delete(f);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        start();
    }

    private void stopServer() {
        channels.values().forEach(ManagedChannel::shutdownNow);
        channels.clear();
        lists.clear();
        if (server != null) {
            server.shutdownNow();
            try {
                server.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            server = null;
        }
    }

    @Override
    public synchronized void close() {
        stopServer();
        sockets.close();
    }
}
