package io.hami.kube.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import io.hami.protocol.testing.Patience;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client of {@link KubeClients} sends its requests at once, however many (issue 28): fabric8's Vert.x client does not
 * apply {@link Config#getMaxConcurrentRequestsPerHost()} (5 by default, and so in the client's configuration), so the scheduler's concurrent binds do not
 * queue behind one another in the client; {@code --kube-qps} and {@code --kube-burst} are its only limit.
 */
class KubeClientsConcurrencyTest {
    static final String NODE = "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n1\"}}";

    @TempDir
    Path dir;

    HttpServer server;
    final AtomicInteger arrived = new AtomicInteger();
    final CountDownLatch answer = new CountDownLatch(1);

    @BeforeEach
    void start() throws Exception {
        // Holds every GET until told to answer, so the requests the client has in flight at once can be counted.
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/api/v1/nodes/n1", exchange -> {
            arrived.incrementAndGet();
            try {
                answer.await(Patience.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = NODE.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (var out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
    }

    @AfterEach
    void stop() {
        answer.countDown();
        server.stop(0);
    }

    @Test
    void moreRequestsThanFabric8sPerHostDefaultAreInFlightAtOnce() throws Exception {
        Path kubeconfig = Files.writeString(
                dir.resolve("kubeconfig"), """
                apiVersion: v1
                kind: Config
                clusters:
                - name: held
                  cluster:
                    server: http://127.0.0.1:%d
                contexts:
                - name: held
                  context: {cluster: held, user: held}
                current-context: held
                users:
                - name: held
                  user: {}
                """.formatted(server.getAddress().getPort()));
        try (var client = KubeClients.connect(
                        kubeconfig, Duration.ofSeconds(60), Optional.of(new ApiRateLimit(1000, 1000)));
                var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            int perHost = client.getConfiguration().getMaxConcurrentRequestsPerHost();
            int requests = 2 * perHost;
            List<Future<Node>> gets = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                gets.add(threads.submit(() -> client.nodes().withName("n1").get()));
            }
            await("all " + requests + " GETs at the server at once (fabric8's per-host default: " + perHost + ")")
                    .atMost(Patience.seconds(20))
                    .until(() -> arrived.get() == requests);
            answer.countDown();
            for (var get : gets) {
                assertThat(get.get(Patience.seconds(20).toMillis(), TimeUnit.MILLISECONDS)
                                .getMetadata()
                                .getName())
                        .isEqualTo("n1");
            }
        }
    }
}
