package io.hami.kube.http;

import java.time.Duration;

/**
 * How long and how much of a request a server under {@link BoundedReads} reads before answering it (issue 26: a
 * declared 1 GiB body that never arrived held its connection forever).
 *
 * @param headerTimeout     from a request's first byte (TLS handshake included) to the end of its headers; past it
 *                          the connection is closed (the scheduler's {@code --http-header-timeout})
 * @param bodyTimeout       from the end of the headers to the body's last byte; past it the connection is closed
 *                          (the scheduler's {@code --http-body-timeout})
 * @param inFlightBodyBytes request-body bytes one server holds at once over all requests being received or handled;
 *                          a request that would go past it is answered 503 at once
 */
public record RequestLimits(Duration headerTimeout, Duration bodyTimeout, long inFlightBodyBytes) {
    /**
     * kube-scheduler sends a request's headers and body at once, in milliseconds even at 5,000 nodes, and waits 30 s
     * (its extender {@code httpTimeout} in deploy/) for the answer: 10 s each leaves a slow but honest client room and
     * ends a request we could no longer answer in time. 32 MiB of bodies is eight full /filter bodies at the 4 MiB limit.
     * Prometheus sends its GETs at once too, so the metrics ports of the scheduler, plugins and monitor use the same.
     */
    public static final RequestLimits DEFAULTS =
            new RequestLimits(Duration.ofSeconds(10), Duration.ofSeconds(10), 32L * 1024 * 1024);

    public RequestLimits {
        positive("--http-header-timeout", headerTimeout);
        positive("--http-body-timeout", bodyTimeout);
        if (inFlightBodyBytes <= 0) {
            throw new IllegalArgumentException("in-flight body bytes must be positive, got " + inFlightBodyBytes);
        }
    }

    /** These timeouts with the default budget. */
    public RequestLimits(Duration headerTimeout, Duration bodyTimeout) {
        this(headerTimeout, bodyTimeout, DEFAULTS.inFlightBodyBytes());
    }

    private static void positive(String flag, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(flag + " must be positive, got " + d);
        }
    }
}
