package io.hami.kube.client;

import java.time.Duration;

/**
 * The client-side limit on requests to the API server, as client-go's ({@code --kube-qps}, {@code --kube-burst}): a
 * token bucket that holds {@code burst} tokens, starts full and gains {@code qps} tokens a second; each request takes
 * one, waiting for it when the bucket is empty.
 *
 * @param qps requests a second in the long run, positive
 * @param burst requests that may go at once after a quiet spell, at least 1
 */
public record ApiRateLimit(double qps, int burst) {
    /** client-go's defaults, which upstream's scheduler keeps ({@code --kube-qps 5}, {@code --kube-burst 10}). */
    public static final ApiRateLimit CLIENT_GO_DEFAULT = new ApiRateLimit(5, 10);

    /** @throws IllegalArgumentException naming the flag, for a rate or burst out of range */
    public ApiRateLimit {
        if (!(qps > 0) || Double.isInfinite(qps)) {
            throw new IllegalArgumentException(
                    "--kube-qps must be a positive number of requests a second, got " + format(qps));
        }
        if (burst < 1) {
            throw new IllegalArgumentException("--kube-burst must be at least 1, got " + burst);
        }
    }

    /** The time in which the bucket gains one token: 1 s / qps, at least 1 ns. */
    public Duration refillPeriod() {
        return Duration.ofNanos(Math.max(1L, Math.round(1e9 / qps)));
    }

    /** {@code qps} as an operator wrote it: {@code 5}, not {@code 5.0}. */
    static String format(double qps) {
        return qps == Math.rint(qps) && !Double.isInfinite(qps) ? Long.toString((long) qps) : Double.toString(qps);
    }

    @Override
    public String toString() {
        return "--kube-qps " + format(qps) + ", --kube-burst " + burst;
    }
}
