package io.hami.plugin.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * {@code /metrics} of one plugin through the client library's own HTTP server (text, OpenMetrics, protobuf,
 * gzip, {@code /-/healthy}): a plugin's registry is a few dozen series, so the scheduler's cached exposition
 * would buy nothing here.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private final HTTPServer server;
    private final InetSocketAddress address;

    private MetricsEndpoint(HTTPServer server, InetSocketAddress address) {
        this.server = server;
        this.address = address;
    }

    /** Serves {@code registry} at {@code bind}; port 0 picks a free port. */
    public static MetricsEndpoint start(InetSocketAddress bind, PrometheusRegistry registry) throws IOException {
        if (bind.isUnresolved()) {
            throw new IOException("unknown host " + bind.getHostString());
        }
        HTTPServer server = HTTPServer.builder()
                .inetAddress(bind.getAddress())
                .port(bind.getPort())
                .registry(registry)
                .buildAndStart();
        return new MetricsEndpoint(server, new InetSocketAddress(bind.getAddress(), server.getPort()));
    }

    /** The address bound, with the chosen port when 0 was asked for. */
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        server.close();
    }
}
