package io.hami.scheduler.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * Serves a registry on {@code /metrics} on its own port (upstream: {@code :9395}), so scraping needs neither the
 * extender's TLS certificate nor leadership: every replica reports.
 */
public final class MetricsServer implements AutoCloseable {
    private final HTTPServer server;
    private final InetSocketAddress address;

    private MetricsServer(HTTPServer server, InetSocketAddress address) {
        this.server = server;
        this.address = address;
    }

    /** Starts serving {@code registry} at {@code bind}; port 0 picks a free port. */
    public static MetricsServer start(InetSocketAddress bind, PrometheusRegistry registry) throws IOException {
        HTTPServer server = HTTPServer.builder()
                .inetAddress(bind.getAddress())
                .port(bind.getPort())
                .registry(registry)
                .buildAndStart();
        return new MetricsServer(server, new InetSocketAddress(bind.getAddress(), server.getPort()));
    }

    /** The address actually bound, with the chosen port when 0 was asked for. */
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        server.close();
    }
}
