package io.hami.kube.client;

import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.net.URI;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds each request to the API server until the {@link ApiRateLimit}'s bucket gives it a token, as client-go's
 * {@code rest.Config} limiter does ({@code Wait} before every request, a retry included). One bucket per client.
 *
 * <p>Watches are not held: a watch is one long-lived stream (one per informer), which fabric8 opens from its Vert.x
 * event loop and reopens from its shared scheduler thread, where a wait would stall other requests. client-go
 * charges a watch's start one token; leaving those few requests out changes the budget by little, and an informer
 * that lost its watch resumes at once rather than behind a queue of binds.
 *
 * <p>fabric8 also sends some requests from threads that must not block: the Vert.x event loop (the next page of an
 * informer's LIST) and that scheduler thread (a retry). Those take their token at once, overdrawing the bucket when
 * it is empty, so the requests that come after them wait the longer: the rate holds, only not for them.
 */
public final class RateLimitInterceptor implements Interceptor {
    /** The name under which {@link KubeClients} adds it to fabric8's HTTP client. */
    public static final String NAME = "hami-rate-limit";

    private static final Logger LOG = LoggerFactory.getLogger(RateLimitInterceptor.class);
    /** Waits from this long on are logged (at debug): the limit, not the API server, is what is slow. */
    static final Duration LOGGED_WAIT = Duration.ofSeconds(1);

    private final ApiRateLimit limit;
    private final Bucket bucket;

    public RateLimitInterceptor(ApiRateLimit limit) {
        this.limit = limit;
        // Greedy refill adds tokens smoothly (a fraction at a time), like golang.org/x/time/rate; full at the start.
        this.bucket = Bucket.builder()
                .addLimit(Bandwidth.builder()
                        .capacity(limit.burst())
                        .refillGreedy(1, limit.refillPeriod())
                        .build())
                .withNanosecondPrecision()
                .build();
    }

    public ApiRateLimit limit() {
        return limit;
    }

    /** Tokens in the bucket now; negative while overdrawn. */
    long availableTokens() {
        return bucket.getAvailableTokens();
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        URI uri = request.uri();
        if (isWatch(uri)) {
            return;
        }
        if (!mayBlock(Thread.currentThread().getName())) {
            bucket.consumeIgnoringRateLimits(1);
            return;
        }
        long start = System.nanoTime();
        try {
            bucket.asBlocking().consume(1);
        } catch (InterruptedException e) {
            // The caller is being stopped: let its request go rather than fail it here; it sees the interrupt.
            Thread.currentThread().interrupt();
            return;
        }
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        if (waited.compareTo(LOGGED_WAIT) >= 0 && LOG.isDebugEnabled()) {
            LOG.debug(
                    "{} {} waited {} ms for the client-side rate limit ({})",
                    request.method(),
                    uri.getRawPath(),
                    waited.toMillis(),
                    limit);
        }
    }

    /** Whether {@code uri} opens a watch ({@code watch=true} or {@code watch=1}, as the API server reads it). */
    static boolean isWatch(URI uri) {
        String query = uri.getRawQuery();
        if (query == null) {
            return false;
        }
        for (String param : query.split("&", -1)) {
            if (param.equals("watch=true") || param.equals("watch=1")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether a thread of this name may wait for a token: not Vert.x's (fabric8's HTTP client; a blocked event loop
     * stalls every request of the client) nor fabric8's shared scheduler (retries, watch reconnects).
     */
    static boolean mayBlock(String threadName) {
        return !threadName.startsWith("vert.x-") && !threadName.startsWith("CachedSingleThreadScheduler");
    }
}
