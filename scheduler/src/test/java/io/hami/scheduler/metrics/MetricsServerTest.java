package io.hami.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

class MetricsServerTest {

    static HttpResponse<String> get(URI uri) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void servesTheRegistryOnMetricsUntilClosed() throws Exception {
        var registry = new PrometheusRegistry();
        new SchedulerMetrics(registry, "9.9.9");
        URI uri;
        try (var server = MetricsServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), registry)) {
            assertThat(server.address().getPort()).isPositive();
            uri = URI.create("http://127.0.0.1:" + server.address().getPort() + "/metrics");

            var response = get(uri);

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
            assertThat(response.body()).contains("hami_build_info{version=\"9.9.9\"} 1.0");
        }

        assertThatThrownBy(() -> get(uri)).isInstanceOf(ConnectException.class);
    }
}
