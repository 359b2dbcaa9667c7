package io.hami.scheduler.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.hami.kube.http.MetricsPort;
import io.hami.kube.http.RequestLimits;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;

/**
 * Serves the scheduler's metrics on {@code /metrics} on its own port (upstream: {@code :9395}), so scraping needs
 * neither the extender's TLS certificate nor leadership: every replica reports.
 *
 * <p>A GET in the text format or OpenMetrics, plain or gzip (what Prometheus asks for), is written by
 * {@link Exposition}, which keeps the per-device lines between scrapes. Anything else (protobuf, a {@code name[]}
 * filter, HEAD) goes to the client library's handler over the whole registry, as before.
 */
public final class MetricsServer implements AutoCloseable {
    private static final String TEXT = PrometheusTextFormatWriter.CONTENT_TYPE;
    private static final String OPEN_METRICS = OpenMetricsTextFormatWriter.CONTENT_TYPE;

    private final MetricsPort port;

    private MetricsServer(MetricsPort port) {
        this.port = port;
    }

    /** Starts serving {@code registry} at {@code bind} as the client library writes it; port 0 picks a free port. */
    public static MetricsServer start(InetSocketAddress bind, PrometheusRegistry registry) throws IOException {
        return start(bind, Exposition.of(registry));
    }

    /** Starts serving {@code exposition} at {@code bind} with the default request limits; port 0 picks a free port. */
    public static MetricsServer start(InetSocketAddress bind, Exposition exposition) throws IOException {
        return start(bind, exposition, RequestLimits.DEFAULTS);
    }

    /**
     * Starts serving {@code exposition} at {@code bind}, reading requests within {@code limits} as the extender does
     * ({@link MetricsPort}: deadlines, bounded bodies, two scrapes at a time); port 0 picks a free port.
     */
    public static MetricsServer start(InetSocketAddress bind, Exposition exposition, RequestLimits limits)
            throws IOException {
        var fallback = new MetricsHandler(exposition.registry());
        return new MetricsServer(MetricsPort.start(bind, exchange -> serve(exchange, exposition, fallback), limits));
    }

    private static void serve(HttpExchange exchange, Exposition exposition, HttpHandler fallback) throws IOException {
        try (exchange) {
            String accept = exchange.getRequestHeaders().getFirst("Accept");
            if (!"GET".equals(exchange.getRequestMethod())
                    || exchange.getRequestURI().getRawQuery() != null
                    || protobuf(accept)) {
                fallback.handle(exchange);
                return;
            }
            boolean openMetrics = openMetrics(accept);
            var headers = exchange.getResponseHeaders();
            headers.set("Content-Type", openMetrics ? OPEN_METRICS : TEXT);
            if (gzip(exchange.getRequestHeaders().getFirst("Accept-Encoding"))) {
                byte[] body = exposition.gzip(openMetrics);
                headers.set("Content-Encoding", "gzip");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            } else {
                exchange.sendResponseHeaders(
                        200, 0); // chunked: the cached lines are streamed, not copied into one body
                try (OutputStream out = new BufferedOutputStream(exchange.getResponseBody(), 64 * 1024)) {
                    exposition.write(out, openMetrics);
                }
            }
        } catch (IOException | RuntimeException e) {
            // Headers may already be sent; the client library's handler answers 500 the same way when it can.
            throw new IOException("metrics scrape failed", e);
        }
    }

    /** As the client library decides: protobuf first when asked for, then OpenMetrics, else text 0.0.4. */
    static boolean protobuf(String accept) {
        return accept != null
                && accept.contains("application/vnd.google.protobuf")
                && accept.contains("proto=io.prometheus.client.MetricFamily");
    }

    static boolean openMetrics(String accept) {
        return accept != null && accept.contains("application/openmetrics-text");
    }

    static boolean gzip(String acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        for (String coding : acceptEncoding.split(",", -1)) {
            if (coding.trim().startsWith("gzip")) {
                return true;
            }
        }
        return false;
    }

    /** The address actually bound, with the chosen port when 0 was asked for. */
    public InetSocketAddress address() {
        return port.address();
    }

    @Override
    public void close() {
        port.close();
    }
}
