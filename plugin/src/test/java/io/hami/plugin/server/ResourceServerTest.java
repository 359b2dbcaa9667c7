package io.hami.plugin.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Context;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.hami.plugin.kubeletapi.AllocateRequest;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.DevicePluginGrpc;
import io.hami.protocol.testing.Patience;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResourceServerTest {
    /**
     * An Allocate still writing its outcome when the plugin stops (the lab restarts plugins in process): the stop
     * waits for it, so its answer goes out before the event loops shut, instead of a RejectedExecutionException on
     * the call's thread.
     */
    @Test
    void aStopWaitsForACallStillRunningBeforeTheEventLoopsShut(@TempDir Path dir) throws Exception {
        var entered = new CountDownLatch(1);
        var cancelled = new CountDownLatch(1);
        var finished = new AtomicBoolean();
        var thrown = new AtomicReference<Throwable>();
        var service = new DevicePluginGrpc.DevicePluginImplBase() {
            @Override
            public void allocate(AllocateRequest request, StreamObserver<AllocateResponse> response) {
                // The call's own listeners run after this method returns; its context hears a cancel at once.
                Context.current().addListener(c -> cancelled.countDown(), Runnable::run);
                entered.countDown();
                try {
                    cancelled.await();
                    Thread.sleep(300); // the API write an Allocate makes before it answers
                    response.onNext(AllocateResponse.getDefaultInstance());
                    response.onCompleted();
                } catch (StatusRuntimeException e) {
                    // the kubelet is gone: the answer is dropped, which gRPC says this way
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    thrown.set(e);
                }
                finished.set(true);
            }
        };
        var sockets = new UnixSockets();
        var server = new ResourceServer(dir.resolve("r.sock"), service, sockets);
        server.start();
        var channel = sockets.channel(server.socket());
        try {
            var unused = DevicePluginGrpc.newFutureStub(channel).allocate(AllocateRequest.getDefaultInstance());
            assertThat(entered.await(Patience.seconds(10).toMillis(), TimeUnit.MILLISECONDS))
                    .as("the Allocate reached the server")
                    .isTrue();
            server.close(); // cancels the call, which goes on writing
            assertThat(finished)
                    .as("the running call finished before close returned")
                    .isTrue();
        } finally {
            channel.shutdownNow().awaitTermination(Patience.seconds(5).toMillis(), TimeUnit.MILLISECONDS);
            sockets.close();
        }
        assertThat(cancelled.getCount()).isZero();
        assertThat(thrown.get()).as("what the call's write threw").isNull();
    }
}
