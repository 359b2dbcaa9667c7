package io.hami.lab.kubelet;

import io.grpc.Context;
import io.grpc.ManagedChannel;
import io.grpc.stub.StreamObserver;
import io.hami.plugin.kubeletapi.Device;
import io.hami.plugin.kubeletapi.DevicePluginGrpc;
import io.hami.plugin.kubeletapi.DevicePluginOptions;
import io.hami.plugin.kubeletapi.Empty;
import io.hami.plugin.kubeletapi.ListAndWatchResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The kubelet's connection to one registered plugin resource: the channel to the plugin's socket, the options it
 * answered inside Register, and the device list its ListAndWatch stream last sent. When the stream ends the
 * endpoint is disconnected, as the kubelet's device manager treats a plugin that went away.
 */
final class PluginEndpoint {
    private static final String HEALTHY = "Healthy";

    private final String resource;
    private final ManagedChannel channel;
    private final DevicePluginOptions options;
    private volatile List<Device> devices = List.of();
    private volatile boolean connected = true;

    /** Dials the plugin and asks for its options, as the kubelet does synchronously inside Register. */
    PluginEndpoint(String resource, ManagedChannel channel) {
        this.resource = resource;
        this.channel = channel;
        this.options = DevicePluginGrpc.newBlockingStub(channel)
                .withDeadlineAfter(10, TimeUnit.SECONDS)
                .getDevicePluginOptions(Empty.getDefaultInstance());
    }

    /**
     * Opens ListAndWatch in the background; {@code changed} runs after every list and when the stream ends. The stream
     * is opened outside the caller's gRPC context: opened inside Register, it would end with that call.
     */
    void watch(Consumer<PluginEndpoint> changed) {
        Context.ROOT.run(() -> DevicePluginGrpc.newStub(channel)
                .listAndWatch(Empty.getDefaultInstance(), new StreamObserver<>() {
                    @Override
                    public void onNext(ListAndWatchResponse list) {
                        devices = List.copyOf(list.getDevicesList());
                        changed.accept(PluginEndpoint.this);
                    }

                    @Override
                    public void onError(Throwable t) {
                        disconnect(changed);
                    }

                    @Override
                    public void onCompleted() {
                        disconnect(changed);
                    }
                }));
    }

    private void disconnect(Consumer<PluginEndpoint> changed) {
        if (connected) {
            connected = false;
            changed.accept(this);
        }
    }

    String resource() {
        return resource;
    }

    DevicePluginOptions options() {
        return options;
    }

    boolean connected() {
        return connected;
    }

    DevicePluginGrpc.DevicePluginBlockingStub stub() {
        return DevicePluginGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    DevicePluginGrpc.DevicePluginFutureStub futureStub() {
        return DevicePluginGrpc.newFutureStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
    }

    /** Every device ID the plugin advertises (the resource's capacity). */
    List<String> all() {
        return devices.stream().map(Device::getID).toList();
    }

    /** IDs that may be allocated: healthy ones of a connected plugin (the resource's allocatable). */
    List<String> healthy() {
        return connected
                ? devices.stream()
                        .filter(d -> HEALTHY.equals(d.getHealth()))
                        .map(Device::getID)
                        .toList()
                : List.of();
    }

    void close() {
        connected = false;
        channel.shutdownNow();
    }
}
