package io.hami.kube.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;

/**
 * A Prometheus port: {@code /metrics} and {@code /-/healthy} on a JDK HTTP server under {@link BoundedReads}. The
 * client library's own {@code HTTPServer} reads requests on a small pool with no deadline, so a client that sends half
 * a request line, or declares a body it never sends, holds one of its threads for good, and a few hundred hold them all
 * (issue 26). Here each request has the header and body deadlines of its {@link RequestLimits}, a GET body of at most
 * {@link #NO_BODY} bytes, and two scrapes run at a time. {@code /metrics} is the client library's {@link MetricsHandler}
 * (text, OpenMetrics, protobuf, gzip, {@code name[]}) unless the caller brings its own.
 */
public final class MetricsPort implements AutoCloseable {
    /** Largest request body: the endpoints are GETs, which send none. */
    public static final long NO_BODY = 16 * 1024;

    /** Scrapes served at once (two Prometheus replicas); more wait rather than each building a body in memory. */
    static final int SCRAPES = 2;

    private final HttpServer server;
    private final BoundedReads reads;
    private final InetSocketAddress address;

    private MetricsPort(HttpServer server, BoundedReads reads) {
        this.server = server;
        this.reads = reads;
        this.address = server.getAddress();
    }

    /** Serves {@code registry} at {@code bind} with {@link RequestLimits#DEFAULTS}; port 0 picks a free port. */
    public static MetricsPort start(InetSocketAddress bind, PrometheusRegistry registry) throws IOException {
        return start(bind, registry, RequestLimits.DEFAULTS);
    }

    /** Serves {@code registry} at {@code bind}, reading requests within {@code limits}; port 0 picks a free port. */
    public static MetricsPort start(InetSocketAddress bind, PrometheusRegistry registry, RequestLimits limits)
            throws IOException {
        return start(bind, new MetricsHandler(registry), limits);
    }

    /** Serves {@code /metrics} by {@code metrics} at {@code bind}, reading requests within {@code limits}. */
    public static MetricsPort start(InetSocketAddress bind, HttpHandler metrics, RequestLimits limits)
            throws IOException {
        if (bind.isUnresolved()) {
            throw new IOException("unknown host " + bind.getHostString());
        }
        BoundedReads.boundHeadersAndConnections();
        HttpServer server = HttpServer.create(bind, 0);
        var reads = BoundedReads.on(server, limits, "metrics");
        var scrapes = new Semaphore(SCRAPES);
        reads.serve("/metrics", NO_BODY, BoundedReads.TEXT, exchange -> {
            try (exchange) {
                scrapes.acquire();
                try {
                    metrics.handle(exchange);
                } finally {
                    scrapes.release();
                }
            } catch (InterruptedException e) { // the port is closing
                Thread.currentThread().interrupt();
            }
        });
        reads.serve("/-/healthy", NO_BODY, BoundedReads.TEXT, MetricsPort::healthy);
        server.start();
        return new MetricsPort(server, reads);
    }

    private static void healthy(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = "Exporter is healthy.\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    BoundedReads reads() {
        return reads;
    }

    /** The address bound, with the chosen port when 0 was asked for. */
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        server.stop(0);
        reads.close();
    }
}
