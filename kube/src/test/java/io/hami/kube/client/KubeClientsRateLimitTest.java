package io.hami.kube.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.testing.Patience;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link KubeClients#connect(Path, Duration, Optional)} with an {@link ApiRateLimit}, against the embedded API server:
 * ordinary requests take their turn, a watch does not.
 */
class KubeClientsRateLimitTest {
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    @TempDir
    Path dir;

    EmbeddedApiServer server;
    Path kubeconfig;
    KubernetesClient unlimited;

    @BeforeEach
    void start() throws Exception {
        server = EmbeddedApiServer.start();
        kubeconfig = server.writeKubeconfig(dir.resolve("kubeconfig"));
        unlimited = KubeClients.connect(kubeconfig, TIMEOUT, Optional.empty());
        unlimited.nodes().resource(node("n1")).create();
    }

    @AfterEach
    void stop() {
        unlimited.close();
        server.close();
    }

    static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).endMetadata().build();
    }

    /** Interrupts a GET waiting for its token (it then goes at once) and lets it end before its client closes. */
    static void stopWaiting(ExecutorService threads) throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(Patience.seconds(10).toMillis(), TimeUnit.MILLISECONDS))
                .isTrue();
    }

    /**
     * A thread of its own for the GET, returned once it waits for its token: parked inside the
     * {@link RateLimitInterceptor} (not merely not done yet, nor waiting on the server).
     */
    static Future<Node> heldGet(ExecutorService threads, KubernetesClient client) throws InterruptedException {
        var thread = new CompletableFuture<Thread>();
        var get = threads.submit(() -> {
            thread.complete(Thread.currentThread());
            return client.nodes().withName("n1").get();
        });
        Thread t;
        try {
            t = thread.get(Patience.seconds(10).toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("the GET's thread did not start", e);
        }
        await("the GET waiting for its token")
                .atMost(Patience.seconds(10))
                .pollInterval(Duration.ofMillis(5))
                .failFast("a GET behind the empty bucket returned instead of waiting for its token", get::isDone)
                .until(() -> waitsForAToken(t));
        return get;
    }

    static boolean waitsForAToken(Thread t) {
        return t.getState() == Thread.State.TIMED_WAITING
                && Arrays.stream(t.getStackTrace())
                        .anyMatch(f -> f.getClassName().equals(RateLimitInterceptor.class.getName())
                                && f.getMethodName().equals("before"));
    }

    static long millisFor12Gets(KubernetesClient client) {
        long start = System.nanoTime();
        for (int i = 0; i < 12; i++) {
            assertThat(client.nodes().withName("n1").get()).isNotNull();
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @Test
    void requestsBeyondTheBurstGoAtTheRate() throws Exception {
        millisFor12Gets(unlimited); // connections and classes warm
        long free = millisFor12Gets(unlimited);
        long limited;
        try (var client = KubeClients.connect(kubeconfig, TIMEOUT, Optional.of(new ApiRateLimit(5, 2)))) {
            // 2 at once, then one every 200 ms: (12 - 2) / 5 = 2 s
            limited = millisFor12Gets(client);
        }
        assertThat(limited).as("12 GETs at qps 5, burst 2").isGreaterThanOrEqualTo(1_600);
        assertThat(free).as("the same 12 GETs without a limit").isLessThan(limited / 2);
    }

    @Test
    void aWatchOpensAtOnceWhenTheBucketIsEmpty() throws Exception {
        // One token every 20 s, and the bucket holds one.
        var threads = Executors.newSingleThreadExecutor();
        try (var client = KubeClients.connect(kubeconfig, TIMEOUT, Optional.of(new ApiRateLimit(0.05, 1)))) {
            assertThat(client.nodes().withName("n1").get()).isNotNull();
            var held = heldGet(threads, client);

            var added = new CountDownLatch(1);
            long start = System.nanoTime();
            try (var watch = client.nodes().watch(new Watcher<Node>() {
                @Override
                public void eventReceived(Action action, Node node) {
                    if (action == Action.ADDED && node.getMetadata().getName().equals("n2")) {
                        added.countDown();
                    }
                }

                @Override
                public void onClose(WatcherException cause) {}
            })) {
                unlimited.nodes().resource(node("n2")).create();
                assertThat(added.await(10, TimeUnit.SECONDS))
                        .as("the watch saw n2 (a throttled one would start 20 s later)")
                        .isTrue();
            }
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
            assertThat(held)
                    .as("a GET behind the empty bucket still waits for its token")
                    .isNotDone();
            stopWaiting(threads);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void anInformersLaterPagesDoNotWaitOnFabric8sEventLoop() throws Exception {
        for (int i = 2; i <= 5; i++) {
            unlimited.nodes().resource(node("n" + i)).create();
        }
        // One token every 20 s. The first page is asked for from this thread and takes the only token; fabric8 asks
        // for the next two from its Vert.x event loop, which must not wait 40 s (nor stall the client's other I/O).
        var threads = Executors.newSingleThreadExecutor();
        try (var client = KubeClients.connect(kubeconfig, TIMEOUT, Optional.of(new ApiRateLimit(0.05, 1)));
                var informer = client.nodes().withLimit(2L).runnableInformer(0)) {
            long start = System.nanoTime();
            informer.run();
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .as("3 pages of a LIST and the watch")
                    .isLessThan(Duration.ofSeconds(10));
            assertThat(informer.getStore().list()).hasSize(5);
            var held = heldGet(threads, client); // the pages overdrew the bucket: the next GET waits
            assertThat(held).isNotDone();
            stopWaiting(threads);
        } finally {
            threads.shutdownNow();
        }
    }
}
