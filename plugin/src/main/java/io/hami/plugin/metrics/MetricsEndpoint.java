package io.hami.plugin.metrics;

import io.hami.kube.http.MetricsPort;
import io.hami.kube.http.RequestLimits;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * {@code /metrics} of one plugin through the client library's handler (text, OpenMetrics, protobuf, gzip,
 * {@code /-/healthy}) on kube's {@link MetricsPort}, which reads each request within a deadline (issue 26: the
 * library's own server let a half-sent request hold a thread for good). A plugin's registry is a few dozen series, so
 * the scheduler's cached exposition would buy nothing here.
 */
public final class MetricsEndpoint implements AutoCloseable {
    private final MetricsPort port;
    private final InetSocketAddress address;

    private MetricsEndpoint(MetricsPort port, InetSocketAddress address) {
        this.port = port;
        this.address = address;
    }

    /** Serves {@code registry} at {@code bind} with the default request limits; port 0 picks a free port. */
    public static MetricsEndpoint start(InetSocketAddress bind, PrometheusRegistry registry) throws IOException {
        return start(bind, registry, RequestLimits.DEFAULTS);
    }

    static MetricsEndpoint start(InetSocketAddress bind, PrometheusRegistry registry, RequestLimits limits)
            throws IOException {
        var port = MetricsPort.start(bind, registry, limits);
        return new MetricsEndpoint(
                port, new InetSocketAddress(bind.getAddress(), port.address().getPort()));
    }

    /** The address bound, with the chosen port when 0 was asked for. */
    public InetSocketAddress address() {
        return address;
    }

    @Override
    public void close() {
        port.close();
    }
}
