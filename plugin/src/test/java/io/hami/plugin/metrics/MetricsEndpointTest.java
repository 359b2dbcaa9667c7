package io.hami.plugin.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.kube.http.RequestLimits;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The plugin's metrics port reads requests within a deadline (issue 26; kube's {@code MetricsPortTest} holds the many
 * slow clients): half a request line is closed within the header timeout while scrapes are answered.
 */
class MetricsEndpointTest {
    static final RequestLimits LIMITS = new RequestLimits(Duration.ofSeconds(2), Duration.ofSeconds(2));
    /** A loaded 2-core machine may notice a deadline late, never early. */
    static final Duration MARGIN = Duration.ofSeconds(10);

    @Test
    void halfARequestLineIsClosedWithinTheHeaderTimeoutWhileScrapesAreAnswered() throws Exception {
        var registry = new PrometheusRegistry();
        new PluginMetrics(registry, "n1", "nvidia").libraryUsable(true);
        try (var endpoint = MetricsEndpoint.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), registry, LIMITS);
                var slow = new Socket(
                        InetAddress.getLoopbackAddress(), endpoint.address().getPort());
                var http = HttpClient.newHttpClient()) {
            slow.setSoTimeout(
                    (int) LIMITS.headerTimeout().plus(MARGIN).plus(MARGIN).toMillis());
            long sent = System.nanoTime();
            slow.getOutputStream().write("GET /metr".getBytes(StandardCharsets.ISO_8859_1));
            slow.getOutputStream().flush();

            var scrape = http.send(
                    HttpRequest.newBuilder(URI.create(
                                    "http://127.0.0.1:" + endpoint.address().getPort() + "/metrics"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(scrape.statusCode()).isEqualTo(200);
            assertThat(scrape.body()).contains("hami_plugin_vendor_library_usable{backend=\"nvidia\",node=\"n1\"} 1");

            var received = new ByteArrayOutputStream();
            try {
                slow.getInputStream().transferTo(received); // returns when the port closes the connection
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the port did not close the connection", e);
            } catch (IOException reset) { // closed with our bytes unread
            }
            assertThat(received.size()).as("no answer").isZero();
            assertThat(Duration.ofNanos(System.nanoTime() - sent))
                    .isBetween(
                            LIMITS.headerTimeout().minusMillis(500),
                            LIMITS.headerTimeout().plus(MARGIN));
        }
    }
}
