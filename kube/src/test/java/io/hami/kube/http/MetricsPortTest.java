package io.hami.kube.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.protocol.testing.Patience;
import io.hami.testing.prometheus.PromText;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * The metrics port of the plugins and the monitor (and, with its own handler, the scheduler): the client library's
 * formats, and issue 26's slow clients, which it closes by their deadlines while scrapes go on.
 */
class MetricsPortTest {
    static final RequestLimits LIMITS = new RequestLimits(Duration.ofSeconds(5), Duration.ofSeconds(5));
    /** A loaded 2-core machine may notice a deadline late, never early. */
    static final Duration MARGIN = Duration.ofSeconds(10);
    /** Each scrape must answer well within the deadlines: one that queued behind the slow clients could not. */
    static final Duration SCRAPE_BUDGET = Duration.ofSeconds(2);

    static final String PROTOBUF =
            "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited";

    static PrometheusRegistry registry() {
        var registry = new PrometheusRegistry();
        registry.register(() -> GaugeSnapshot.builder()
                .name("hami_test_value")
                .help("a value")
                .dataPoint(GaugeDataPointSnapshot.builder().value(7).build())
                .build());
        return registry;
    }

    static MetricsPort start() throws IOException {
        return MetricsPort.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), registry(), LIMITS);
    }

    static URI uri(MetricsPort port, String path) {
        return URI.create("http://127.0.0.1:" + port.address().getPort() + path);
    }

    static HttpResponse<byte[]> get(HttpClient http, URI uri, String... headers) throws Exception {
        var request = HttpRequest.newBuilder(uri);
        if (headers.length > 0) {
            request.headers(headers);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static String text(HttpResponse<byte[]> response) {
        return new String(response.body(), StandardCharsets.UTF_8);
    }

    @Test
    void servesTheClientLibrarysFormatsAndHealthyUntilClosed() throws Exception {
        URI metrics;
        try (var port = start();
                var http = HttpClient.newHttpClient()) {
            metrics = uri(port, "/metrics");

            var plain = get(http, metrics);
            assertThat(plain.statusCode()).isEqualTo(200);
            assertThat(plain.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
            assertThat(PromText.value(PromText.parse(text(plain)), "hami_test_value"))
                    .isEqualTo(7.0);

            var open = get(http, metrics, "Accept", "application/openmetrics-text; version=1.0.0");
            assertThat(open.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("application/openmetrics-text"));
            assertThat(text(open)).contains("hami_test_value 7.0").endsWith("# EOF\n");

            var gzip = get(http, metrics, "Accept-Encoding", "gzip");
            assertThat(gzip.headers().firstValue("Content-Encoding")).hasValue("gzip");
            try (var in = new GZIPInputStream(new ByteArrayInputStream(gzip.body()))) {
                assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
                        .contains("hami_test_value 7.0");
            }

            var protobuf = get(http, metrics, "Accept", PROTOBUF);
            assertThat(protobuf.headers().firstValue("Content-Type")).hasValue(PROTOBUF);
            assertThat(text(protobuf)).contains("hami_test_value");

            var healthy = get(http, uri(port, "/-/healthy"));
            assertThat(healthy.statusCode()).isEqualTo(200);
            assertThat(text(healthy)).isEqualTo("Exporter is healthy.\n");
        }
        try (var http = HttpClient.newHttpClient()) {
            assertThatThrownBy(() -> get(http, metrics)).isInstanceOf(ConnectException.class);
        }
    }

    /** What a slow client sends, and what the port does with it. */
    enum Kind {
        /** Half a request line, then nothing: closed at the header deadline, from the first byte. */
        HALF_REQUEST_LINE(100, "GET /metr"),
        /** A GET that declares a small body and sends part of it: closed at the body deadline, from the headers. */
        BODY_STOPS(50, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{\"a\":"),
        /** A declared 1 GiB body and none of it: answered 413 at once, before any of it is read, and closed. */
        GIB_DECLARED(50, "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1073741824\r\n\r\n");

        final int count;
        final String sent;

        Kind(int count, String sent) {
            this.count = count;
            this.sent = sent;
        }

        /** How long the port holds it, from when it was sent. */
        Duration held() {
            return switch (this) {
                case HALF_REQUEST_LINE -> LIMITS.headerTimeout();
                case BODY_STOPS -> LIMITS.bodyTimeout();
                case GIB_DECLARED -> Duration.ZERO;
            };
        }
    }

    record Slow(Kind kind, Socket socket, long sentNanos, CompletableFuture<RawHttp.Ending> ending) {}

    @Test
    void twoHundredSlowClientsDoNotStarveScrapesAndAreClosedByTheirDeadlines() throws Exception {
        Duration readTimeout =
                Patience.of(LIMITS.headerTimeout().plus(LIMITS.bodyTimeout()).plus(MARGIN));
        var readers = Executors.newVirtualThreadPerTaskExecutor();
        var slow = new ArrayList<Slow>();
        try (var port = start();
                var kept = HttpClient.newHttpClient()) {
            assertThat(get(kept, uri(port, "/metrics")).statusCode()).isEqualTo(200); // warm: JIT, the kept connection
            for (Kind kind : Kind.values()) {
                for (int i = 0; i < kind.count; i++) {
                    var socket = RawHttp.connect(port.address(), readTimeout);
                    long sent = System.nanoTime();
                    RawHttp.send(socket, kind.sent);
                    slow.add(new Slow(
                            kind,
                            socket,
                            sent,
                            CompletableFuture.supplyAsync(() -> RawHttp.untilClosed(socket), readers)));
                }
            }

            // Scrapes while they are held: on the kept-alive connection and on new ones.
            for (int i = 0; i < 10; i++) {
                long start = System.nanoTime();
                HttpResponse<byte[]> scrape;
                if (i % 2 == 0) {
                    scrape = get(kept, uri(port, "/metrics"));
                } else {
                    try (var fresh = HttpClient.newHttpClient()) {
                        scrape = get(fresh, uri(port, "/metrics"));
                    }
                }
                assertThat(scrape.statusCode()).isEqualTo(200);
                assertThat(text(scrape)).contains("hami_test_value 7.0");
                assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(SCRAPE_BUDGET);
            }
            long scrapesDone = System.nanoTime();

            CompletableFuture.allOf(slow.stream().map(Slow::ending).toArray(CompletableFuture[]::new))
                    .get(readTimeout.plus(Patience.of(MARGIN)).toSeconds(), TimeUnit.SECONDS);
            for (Slow s : slow) {
                RawHttp.Ending end = s.ending().join();
                Duration held = Duration.ofNanos(end.atNanos() - s.sentNanos());
                assertThat(end.closedByServer())
                        .as(s.kind() + " closed by the port")
                        .isTrue();
                if (s.kind() == Kind.GIB_DECLARED) {
                    assertThat(end.received())
                            .as("answered before any of the body was read")
                            .startsWith("HTTP/1.1 413")
                            .contains("request body of 1073741824 bytes exceeds 16384 bytes, the limit of /metrics");
                    assertThat(held).isLessThan(MARGIN);
                } else {
                    assertThat(end.received()).as(s.kind() + ": no answer").isEmpty();
                    assertThat(end.atNanos())
                            .as(s.kind() + " held while the scrapes ran")
                            .isGreaterThan(scrapesDone);
                    assertThat(held)
                            .as(s.kind() + " closed by its deadline")
                            .isBetween(
                                    s.kind().held().minusMillis(500),
                                    s.kind().held().plus(MARGIN));
                }
            }
            assertThat(get(kept, uri(port, "/metrics")).statusCode()).isEqualTo(200);
            assertThat(port.reads().heldBodyBytes()).as("no body held after").isZero();
        } finally {
            readers.shutdownNow();
            for (Slow s : slow) {
                s.socket().close();
            }
        }
    }
}
