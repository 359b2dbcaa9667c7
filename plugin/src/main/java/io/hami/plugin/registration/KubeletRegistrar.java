package io.hami.plugin.registration;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.hami.plugin.kubeletapi.DevicePluginOptions;
import io.hami.plugin.kubeletapi.RegisterRequest;
import io.hami.plugin.kubeletapi.RegistrationGrpc;
import io.hami.plugin.server.UnixSockets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** One {@code Register} call on the kubelet's socket. */
public final class KubeletRegistrar {
    /** The only version the kubelet's device manager supports. */
    public static final String API_VERSION = "v1beta1";
    /** The kubelet's registration socket in the device-plugin directory. */
    public static final String KUBELET_SOCKET = "kubelet.sock";

    private final Path kubeletSocket;
    private final UnixSockets sockets;

    public KubeletRegistrar(Path devicePluginDir, UnixSockets sockets) {
        this.kubeletSocket = devicePluginDir.resolve(KUBELET_SOCKET);
        this.sockets = sockets;
    }

    public Path kubeletSocket() {
        return kubeletSocket;
    }

    /**
     * Registers {@code resource} served on {@code endpoint} (a file name in the device-plugin directory). The
     * kubelet dials the endpoint back before it answers, so the server must already be serving.
     *
     * @throws StatusRuntimeException when the kubelet is not there or refuses
     */
    public void register(String resource, String endpoint, DevicePluginOptions options) {
        ManagedChannel channel = sockets.channel(kubeletSocket);
        try {
            RegistrationGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .register(RegisterRequest.newBuilder()
                            .setVersion(API_VERSION)
                            .setEndpoint(endpoint)
                            .setResourceName(resource)
                            .setOptions(options)
                            .build());
        } finally {
            channel.shutdownNow();
        }
    }
}
