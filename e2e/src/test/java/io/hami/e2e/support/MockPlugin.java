package io.hami.e2e.support;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.plugin.PluginApp;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.config.Timings;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.ContainerAllocateRequest;
import io.hami.plugin.kubeletapi.DevicePluginGrpc;
import io.hami.plugin.server.UnixSockets;
import io.hami.protocol.config.DeviceConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One vendor's device plugin ({@link PluginApp}) on one node, running on a private copy of that vendor's C mock
 * library ({@code hardware-mocks/target/native/<vendor>}, built by {@code ./mvnw -pl hardware-mocks install}), with
 * the client it is given; its kubelet device-plugin folder is private too. {@link #allocate} is the kubelet's
 * Allocate call on the plugin's socket.
 */
public final class MockPlugin implements AutoCloseable {
    public static final Path MOCKS = DeployFiles.ROOT.resolve("hardware-mocks/target/native");
    /** Short periods: the register loop, handshake poll and retries run within a test's patience. */
    public static final Timings FAST = new Timings(Duration.ofMillis(300), Duration.ofMillis(100), Duration.ofMillis(100),
            Duration.ofMillis(50), Duration.ofMillis(300), Duration.ofMillis(200), Duration.ofMillis(200));

    private final PluginApp app;
    private final Path devicePluginDir;

    private MockPlugin(PluginApp app, Path devicePluginDir) {
        this.app = app;
        this.devicePluginDir = devicePluginDir;
    }

    /** Starts the {@code backend} plugin of node {@code node} with {@code client}; its files go under {@code dir}. */
    public static MockPlugin start(KubernetesClient client, String backend, String node, DeviceConfig config, Path dir)
            throws Exception {
        Path nodeRoot = Files.createDirectories(dir.resolve(node));
        Path pluginDir = Files.createDirectories(nodeRoot.resolve("device-plugins"));
        var settings = new PluginApp.Settings(backend, node, null, pluginDir, mock(backend, nodeRoot), config,
                Sharing.NONE, HostPaths.under(nodeRoot), FAST);
        return new MockPlugin(PluginApp.start(client, settings, Clock.systemUTC()), pluginDir);
    }

    /** A private copy of one vendor's mock library with its example devices. */
    private static Path mock(String vendor, Path nodeRoot) throws IOException {
        Path built = MOCKS.resolve(vendor);
        if (!Files.isRegularFile(built.resolve("devices.json"))) {
            throw new IllegalStateException("no mock library in " + built + ": build it with ./mvnw -pl hardware-mocks install");
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
        try (var sockets = new UnixSockets()) {
            var channel = sockets.channel(devicePluginDir.resolve(resource.socketName()));
            try {
                return DevicePluginGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                        .allocate(AllocateRequest.newBuilder().addContainerRequests(
                                ContainerAllocateRequest.newBuilder().addDevicesIds(deviceId)).build());
            } finally {
                channel.shutdownNow();
            }
        }
    }

    @Override
    public void close() {
        app.close();
    }
}
