package io.hami.scheduler.http;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.kube.http.RawHttp;
import io.hami.kube.http.RequestLimits;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.SchedulingPolicy;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Issue 26: bodies over an endpoint's limit, declared or chunked, and requests that stop, against the real server. */
class RequestLimitsHttpTest {
    static final RequestLimits LIMITS = new RequestLimits(Duration.ofSeconds(2), Duration.ofSeconds(2));
    static final Duration MARGIN = Duration.ofSeconds(10);
    static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
    static final JsonMapper JSON = JsonMapper.builder().build();
    static SchedulerFixture f;
    static String podJson;

    @BeforeAll
    static void start() throws Exception {
        var defaults = SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, Duration.ofMinutes(5));
        f = new SchedulerFixture(new SchedulerApp.Settings(
                new SchedulerApp.Settings.Http(defaults.http().bind(), null, null, LIMITS),
                defaults.scheduling(),
                defaults.replica(),
                defaults.metrics()));
        f.nvidiaNode("gpu-1", gpu("GPU-a", 0, 8000));
        f.nvidiaNode("gpu-2", gpu("GPU-b", 0, 16000));
        f.awaitNodes("gpu-1", "gpu-2");
        podJson = f.podJson(f.pod("p", container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "12000")));
    }

    @AfterAll
    static void stop() {
        f.close();
    }

    record Oversized(String path, long declared, long limit, boolean json) {}

    @Test
    void aDeclaredLengthOverTheLimitIsAnswered413BeforeAnyOfTheBody() throws Exception {
        for (var o : List.of(
                new Oversized("/filter", 1L << 30, 4194304, true),
                new Oversized("/filter", Long.MAX_VALUE, 4194304, true),
                new Oversized("/prioritize", 4194305, 4194304, true),
                new Oversized("/preempt", 1L << 30, 4194304, true),
                new Oversized("/bind", 65537, 65536, true),
                new Oversized("/webhook", 1L << 30, 4194304, false))) {
            try (var socket = RawHttp.connect(f.app.address(), READ_TIMEOUT)) {
                RawHttp.send(socket, RawHttp.head(o.path(), o.declared())); // and not a byte of the body
                var r = RawHttp.response(socket);
                assertThat(r.status()).as(o.toString()).isEqualTo(413);
                String expected = "request body of " + o.declared() + " bytes exceeds " + o.limit()
                        + " bytes, the limit of " + o.path();
                assertThat(
                                o.json()
                                        ? JSON.readTree(r.body()).get("Error").asString()
                                        : r.body().strip())
                        .as(o.toString())
                        .isEqualTo(expected);
            }
        }
    }

    @Test
    void aChunkedBodyIsCutOffAt413WhenItPassesTheLimit() throws Exception {
        for (var o : List.of(new Oversized("/bind", -1, 65536, true), new Oversized("/filter", -1, 4194304, true))) {
            try (var socket = RawHttp.connect(f.app.address(), READ_TIMEOUT)) {
                RawHttp.send(socket, RawHttp.head(o.path(), null));
                OutputStream out = socket.getOutputStream();
                byte[] chunk = new byte[64 * 1024];
                Arrays.fill(chunk, (byte) ' ');
                // a little past the limit, and no last chunk: the server must not wait for the end of the body
                for (long sent = 0; sent <= o.limit(); sent += chunk.length) {
                    out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(chunk);
                    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.flush();
                var r = RawHttp.response(socket);
                assertThat(r.status()).as(o.path()).isEqualTo(413);
                assertThat(JSON.readTree(r.body()).get("Error").asString())
                        .isEqualTo("request body exceeds " + o.limit() + " bytes, the limit of " + o.path());
            }
        }
    }

    @Test
    void aBodyOfExactlyTheLimitIsServed() throws Exception {
        String args = "{\"PodName\":\"nope\",\"PodNamespace\":\"default\",\"Node\":\"gpu-1\"}";
        var r = f.post("/bind", args + " ".repeat(65536 - args.length()));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(r.body()).get("Error").asString()).isEqualTo("pod default/nope not found");
    }

    @Test
    void aClientThatStopsInItsHeadersIsClosedWithinTheHeaderTimeout() throws Exception {
        try (var socket = RawHttp.connect(f.app.address(), READ_TIMEOUT)) {
            long start = System.nanoTime();
            RawHttp.send(socket, "POST /filter HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le");
            var end = RawHttp.untilClosed(socket);
            assertThat(end.closedByServer()).isTrue();
            assertThat(end.received()).isEmpty();
            assertThat(Duration.ofNanos(end.atNanos() - start))
                    .isBetween(
                            LIMITS.headerTimeout().minusMillis(500),
                            LIMITS.headerTimeout().plus(MARGIN));
        }
    }

    @Test
    void aDeclaredBodyThatNeverArrivesIsClosedWithinTheBodyTimeout() throws Exception {
        try (var socket = RawHttp.connect(f.app.address(), READ_TIMEOUT)) {
            long start = System.nanoTime();
            RawHttp.send(socket, RawHttp.head("/filter", 100_000L) + "{\"Pod\":");
            var end = RawHttp.untilClosed(socket);
            assertThat(end.closedByServer()).isTrue();
            assertThat(end.received()).isEmpty();
            assertThat(Duration.ofNanos(end.atNanos() - start))
                    .isBetween(
                            LIMITS.bodyTimeout().minusMillis(500),
                            LIMITS.bodyTimeout().plus(MARGIN));
        }
        assertThat(f.getPath("/healthz").statusCode()).isEqualTo(200);
    }

    @Test
    void aRepeatedNodeNameIsAnsweredOnce() throws Exception {
        String names = "[\"gpu-2\",\"gpu-2\",\"gpu-1\",\"gpu-2\",\"gpu-1\"]";
        var filter = JSON.readTree(f.post("/filter", "{\"Pod\":" + podJson + ",\"NodeNames\":" + names + "}")
                .body());
        assertThat(filter.get("NodeNames").toString()).isEqualTo("[\"gpu-2\"]");
        assertThat(filter.get("FailedNodes").propertyNames()).containsExactly("gpu-1");
        var prioritize = JSON.readTree(f.post("/prioritize", "{\"Pod\":" + podJson + ",\"NodeNames\":" + names + "}")
                .body());
        assertThat(prioritize.findValuesAsString("Host")).containsExactly("gpu-2", "gpu-1");
    }
}
