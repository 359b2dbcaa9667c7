package io.hami.e2e.support;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.grpc.Server;
import io.grpc.stub.StreamObserver;
import io.hami.plugin.PluginApp;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.ContainerAllocateRequest;
import io.hami.plugin.kubeletapi.DevicePluginGrpc;
import io.hami.plugin.kubeletapi.Empty;
import io.hami.plugin.kubeletapi.RegisterRequest;
import io.hami.plugin.kubeletapi.RegistrationGrpc;
import io.hami.plugin.server.UnixSockets;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * One vendor's device plugin ({@link PluginApp}) on one node, running on a private copy of that vendor's C mock
 * library ({@code hardware-mocks/target/native/<vendor>}, built by {@code ./mvnw -pl hardware-mocks install}), with
 * the client it is given; its kubelet device-plugin folder is private too, with the kubelet's Registration service
 * on {@code kubelet.sock} accepting its registrations. {@link #allocate} is the kubelet's Allocate call on the
 * plugin's socket.
 */
public final class MockPlugin implements AutoCloseable {
    public static final Path MOCKS = DeployFiles.ROOT.resolve("hardware-mocks/target/native");
    /** Short periods: the register loop, handshake poll and retries run within a test's patience. */
    public static final Timings FAST = new Timings(
            Duration.ofMillis(300),
            Duration.ofMillis(100),
            Duration.ofMillis(100),
            Duration.ofMillis(50),
            Duration.ofMillis(300),
            Duration.ofMillis(200),
            Duration.ofMillis(200));

    private final PluginApp app;
    private final Path devicePluginDir;
    private final UnixSockets sockets;
    private final Server kubelet;
    private final List<String> registered;

    private MockPlugin(
            PluginApp app, Path devicePluginDir, UnixSockets sockets, Server kubelet, List<String> registered) {
        this.app = app;
        this.devicePluginDir = devicePluginDir;
        this.sockets = sockets;
        this.kubelet = kubelet;
        this.registered = registered;
    }

    /** Starts the {@code backend} plugin of node {@code node} with {@code client}; its files go under {@code dir}. */
    public static MockPlugin start(KubernetesClient client, String backend, String node, DeviceConfig config, Path dir)
            throws Exception {
        Path nodeRoot = Files.createDirectories(dir.resolve(node));
        Path pluginDir = Files.createDirectories(nodeRoot.resolve("device-plugins"));
        var settings = new PluginApp.Settings(
                backend,
                node,
                null,
                pluginDir,
                mock(backend, nodeRoot),
                config,
                Sharing.NONE,
                HostPaths.under(nodeRoot),
                FAST);
        // The kubelet's Registration service, which accepts every v1beta1 plugin, as the kubelet does.
        var sockets = new UnixSockets();
        List<String> registered = new CopyOnWriteArrayList<>();
        Server kubelet = sockets.server(pluginDir.resolve("kubelet.sock"), new RegistrationGrpc.RegistrationImplBase() {
                    @Override
                    public void register(RegisterRequest request, StreamObserver<Empty> response) {
                        registered.add(request.getResourceName());
                        response.onNext(Empty.getDefaultInstance());
                        response.onCompleted();
                    }
                })
                .start();
        try {
            return new MockPlugin(
                    PluginApp.start(client, settings, Clock.systemUTC()), pluginDir, sockets, kubelet, registered);
        } catch (Exception | Error e) {
            kubelet.shutdownNow();
            sockets.close();
            throw e;
        }
    }

    /** The resources that registered with the kubelet's Registration service. */
    public List<String> registered() {
        return List.copyOf(registered);
    }

    /** A private copy of one vendor's mock library with its example devices. */
    private static Path mock(String vendor, Path nodeRoot) throws IOException {
        Path built = MOCKS.resolve(vendor);
        if (!Files.isRegularFile(built.resolve("devices.json"))) {
            throw new IllegalStateException(
                    "no mock library in " + built + ": build it with ./mvnw -pl hardware-mocks install");
        }
        Path copy = Files.createDirectories(nodeRoot.resolve("mock-" + vendor));
        try (var files = Files.list(built)) {
            for (Path f : files.toList()) {
                if (!Files.isSymbolicLink(f) && Files.isRegularFile(f)) {
                    Files.copy(f, copy.resolve(f.getFileName()));
                }
            }
        }
        return copy;
    }

    public PluginApp app() {
        return app;
    }

    /** The kubelet's Allocate of kubelet device {@code deviceId} on the plugin's first resource. */
    public AllocateResponse allocate(String deviceId) {
        var resource = app.vendor().resources().getFirst();
        var channel = sockets.channel(devicePluginDir.resolve(resource.socketName()));
        try {
            return DevicePluginGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(Patience.seconds(30).toMillis(), TimeUnit.MILLISECONDS)
                    .allocate(AllocateRequest.newBuilder()
                            .addContainerRequests(
                                    ContainerAllocateRequest.newBuilder().addDevicesIds(deviceId))
                            .build());
        } finally {
            channel.shutdownNow();
        }
    }

    @Override
    public void close() {
        app.close();
        kubelet.shutdownNow();
        sockets.close();
    }
}
