package io.hami.plugin.server;

import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.hami.plugin.health.HealthBoard;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.DevicePluginGrpc;
import io.hami.plugin.kubeletapi.DevicePluginOptions;
import io.hami.plugin.kubeletapi.Empty;
import io.hami.plugin.kubeletapi.ListAndWatchResponse;
import io.hami.plugin.kubeletapi.PreStartContainerRequest;
import io.hami.plugin.kubeletapi.PreStartContainerResponse;
import io.hami.plugin.kubeletapi.PreferredAllocationRequest;
import io.hami.plugin.kubeletapi.PreferredAllocationResponse;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The kubelet's {@code v1beta1.DevicePlugin} service for one resource. */
public final class DevicePluginService extends DevicePluginGrpc.DevicePluginImplBase {
    private static final Logger LOG = LoggerFactory.getLogger(DevicePluginService.class);

    private final String resource;
    private final DeviceListFeed feed;
    private final AllocationHandler handler;
    private final ServerObserver observer;

    public DevicePluginService(
            String resource, DeviceListFeed feed, AllocationHandler handler, ServerObserver observer) {
        this.resource = resource;
        this.feed = feed;
        this.handler = handler;
        this.observer = observer;
    }

    /** The options the kubelet stores for this endpoint; the same go into the Register request. */
    public DevicePluginOptions options() {
        return DevicePluginOptions.newBuilder()
                .setGetPreferredAllocationAvailable(handler.offersPreferences())
                .build();
    }

    @Override
    public void getDevicePluginOptions(Empty request, StreamObserver<DevicePluginOptions> response) {
        response.onNext(options());
        response.onCompleted();
    }

    /** The full list at once, again on every health change, until the kubelet or shutdown ends the stream. */
    @Override
    public void listAndWatch(Empty request, StreamObserver<ListAndWatchResponse> response) {
        ServerCallStreamObserver<ListAndWatchResponse> call = (ServerCallStreamObserver<ListAndWatchResponse>) response;
        Object sending = new Object(); // health changes and the first list come from different threads
        Runnable send = () -> {
            synchronized (sending) {
                if (call.isCancelled()) {
                    return;
                }
                try {
                    call.onNext(feed.current());
                    observer.listSent(resource);
                } catch (StatusRuntimeException | IllegalStateException e) {
                    LOG.debug("{}: ListAndWatch stream closed while sending: {}", resource, e.getMessage());
                }
            }
        };
        HealthBoard.Subscription subscription = feed.health().listen(send);
        call.setOnCancelHandler(subscription::close);
        send.run();
    }

    @Override
    public void getPreferredAllocation(
            PreferredAllocationRequest request, StreamObserver<PreferredAllocationResponse> response) {
        response.onNext(handler.prefer(request));
        response.onCompleted();
    }

    @Override
    public void allocate(AllocateRequest request, StreamObserver<AllocateResponse> response) {
        long start = System.nanoTime();
        AllocateResponse granted;
        try {
            granted = handler.allocate(request);
        } catch (StatusException e) {
            observer.allocated(resource, e.getStatus().getCode(), Duration.ofNanos(System.nanoTime() - start));
            LOG.warn(
                    "{}: Allocate of {} failed: {}",
                    resource,
                    request.getContainerRequestsList().stream()
                            .map(c -> c.getDevicesIdsList())
                            .toList(),
                    e.getStatus().getDescription());
            response.onError(e);
            return;
        } catch (RuntimeException e) {
            // gRPC answers UNKNOWN for it; counted here, where the call's outcome is known
            observer.allocated(resource, Status.Code.UNKNOWN, Duration.ofNanos(System.nanoTime() - start));
            throw e;
        }
        observer.allocated(resource, Status.Code.OK, Duration.ofNanos(System.nanoTime() - start));
        response.onNext(granted);
        response.onCompleted();
    }

    @Override
    public void preStartContainer(
            PreStartContainerRequest request, StreamObserver<PreStartContainerResponse> response) {
        response.onNext(PreStartContainerResponse.getDefaultInstance());
        response.onCompleted();
    }
}
