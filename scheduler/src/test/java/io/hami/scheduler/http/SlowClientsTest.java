package io.hami.scheduler.http;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static io.hami.scheduler.SchedulerFixture.names;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.kube.http.RawHttp;
import io.hami.kube.http.RequestLimits;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.SchedulingPolicy;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 26: 500 clients that send headers, or headers and part of a body, slowly or not at all, against the
 * scheduler that {@link SchedulerApp} starts with its default request limits. Valid /filter calls are answered
 * meanwhile, each well within the time the slow ones are held, and the server closes every slow connection within its
 * deadline.
 */
class SlowClientsTest {
    static final RequestLimits LIMITS = RequestLimits.DEFAULTS;
    /** A loaded 2-core machine may notice a deadline late, never early. */
    static final Duration MARGIN = Duration.ofSeconds(10);
    /** Each valid call must answer in well under the deadlines: one that queued behind the slow clients could not. */
    static final Duration VALID_CALL_BUDGET = Duration.ofSeconds(5);

    static final JsonMapper JSON = JsonMapper.builder().build();
    static SchedulerFixture f;
    static String filterBody;

    @BeforeAll
    static void start() throws Exception {
        var defaults = SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, Duration.ofMinutes(5));
        var settings = new SchedulerApp.Settings(
                new SchedulerApp.Settings.Http(defaults.http().bind(), null, null, LIMITS),
                defaults.scheduling(),
                defaults.replica(),
                defaults.metrics());
        f = new SchedulerFixture(settings);
        f.nvidiaNode("gpu-1", gpu("GPU-a", 0, 8000));
        f.nvidiaNode("gpu-2", gpu("GPU-b", 0, 16000));
        f.awaitNodes("gpu-1", "gpu-2");
        var pod = f.pod("p", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "12000"));
        filterBody = "{\"Pod\":" + f.podJson(pod) + ",\"NodeNames\":" + names("gpu-1", "gpu-2") + "}";
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    /** What a slow client sends, and from when its deadline runs. */
    enum Kind {
        /** Headers and the start of a 1 MiB body, then nothing: the body deadline runs from the headers. */
        BODY_STOPS(150, 1L << 20, false),
        /** Headers, then one byte of the 1 MiB body at a time. */
        BODY_TRICKLES(150, 1L << 20, true),
        /** Part of the headers, then nothing: the header deadline runs from the first byte. */
        HEADERS_STOP(50, null, false),
        /** Part of the headers, then one byte of a header value at a time. */
        HEADERS_TRICKLE(50, null, true),
        /** A declared 2^63-1 byte body: answered 413 before any of it is read; then trickles. */
        HUGE_DECLARED(100, Long.MAX_VALUE, true);

        final int count;
        final Long declared;
        final boolean trickles;

        Kind(int count, Long declared, boolean trickles) {
            this.count = count;
            this.declared = declared;
            this.trickles = trickles;
        }

        boolean headersDone() {
            return declared != null;
        }

        Duration deadline() {
            return headersDone() ? LIMITS.bodyTimeout() : LIMITS.headerTimeout();
        }
    }

    record Slow(Kind kind, Socket socket, long deadlineFromNanos, CompletableFuture<RawHttp.Ending> ending) {}

    @Test
    void fiveHundredSlowClientsDoNotStarveFilterAndAreClosedByTheirDeadline() throws Exception {
        assertThat(validFilter(f.post("/filter", filterBody).body())).isTrue(); // warm: the first call pays for JIT
        var readers = Executors.newVirtualThreadPerTaskExecutor();
        var trickler = Executors.newSingleThreadScheduledExecutor();
        var slow = new ArrayList<Slow>();
        Set<Slow> trickling = ConcurrentHashMap.newKeySet();
        try {
            for (Kind kind : Kind.values()) {
                for (int i = 0; i < kind.count; i++) {
                    var socket = RawHttp.connect(
                            f.app.address(),
                            LIMITS.headerTimeout().plus(LIMITS.bodyTimeout()).plus(MARGIN));
                    long from = System.nanoTime();
                    RawHttp.send(
                            socket,
                            kind.headersDone()
                                    ? RawHttp.head("/filter", kind.declared) + "{\"Pod\":"
                                    : "POST /filter HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
                    var s = new Slow(
                            kind,
                            socket,
                            from,
                            CompletableFuture.supplyAsync(() -> RawHttp.untilClosed(socket), readers));
                    slow.add(s);
                    if (kind.trickles) {
                        trickling.add(s);
                    }
                }
            }
            trickler.scheduleAtFixedRate(() -> trickle(trickling), 0, 200, TimeUnit.MILLISECONDS);

            // Valid calls while the 500 are held: on the kept-alive connection and on new ones.
            var fresh = HttpClient.newHttpClient();
            for (int i = 0; i < 20; i++) {
                long start = System.nanoTime();
                String answer = i % 2 == 0 ? f.post("/filter", filterBody).body() : post(fresh, filterBody);
                assertThat(validFilter(answer)).as(answer).isTrue();
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(VALID_CALL_BUDGET);
            }
            long validDone = System.nanoTime();

            CompletableFuture.allOf(slow.stream().map(Slow::ending).toArray(CompletableFuture[]::new))
                    .get(
                            LIMITS.headerTimeout()
                                            .plus(LIMITS.bodyTimeout())
                                            .plus(MARGIN)
                                            .toSeconds()
                                    * 2,
                            TimeUnit.SECONDS);
            for (Slow s : slow) {
                RawHttp.Ending end = s.ending().join();
                Duration held = Duration.ofNanos(end.atNanos() - s.deadlineFromNanos());
                assertThat(end.closedByServer())
                        .as(s.kind() + " closed by the server")
                        .isTrue();
                assertThat(end.atNanos())
                        .as(s.kind() + " held while the valid calls ran")
                        .isGreaterThan(validDone);
                assertThat(held)
                        .as(s.kind() + " closed by its deadline")
                        .isBetween(
                                s.kind().deadline().minusMillis(500),
                                s.kind().deadline().plus(MARGIN));
                if (s.kind() == Kind.HUGE_DECLARED) {
                    assertThat(end.received())
                            .as("answered before any of the body was read")
                            .startsWith("HTTP/1.1 413")
                            .contains(
                                    "request body of 9223372036854775807 bytes exceeds 4194304 bytes, the limit of /filter");
                } else {
                    assertThat(end.received())
                            .as(s.kind() + ": no answer, the connection is closed")
                            .isEmpty();
                }
            }
            assertThat(validFilter(f.post("/filter", filterBody).body())).isTrue();
        } finally {
            trickler.shutdownNow();
            readers.shutdownNow();
            for (Slow s : slow) {
                s.socket().close();
            }
        }
    }

    /** One more byte from each trickling client; one the server closed stops. */
    static void trickle(Set<Slow> trickling) {
        for (Slow s : trickling) {
            try {
                RawHttp.send(s.socket(), s.kind().headersDone() ? " " : "a");
            } catch (IOException e) {
                trickling.remove(s);
            }
        }
    }

    static String post(HttpClient client, String body) throws Exception {
        var req = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + f.app.address().getPort() + "/filter"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return client.send(req, HttpResponse.BodyHandlers.ofString()).body();
    }

    /** The answer of the pod asking 12000 MiB: gpu-2 fits, gpu-1 does not. */
    static boolean validFilter(String answer) {
        var tree = JSON.readTree(answer);
        return tree.get("NodeNames").toString().equals("[\"gpu-2\"]")
                && tree.get("FailedNodes").has("gpu-1")
                && tree.get("Error").asString().isEmpty();
    }
}
