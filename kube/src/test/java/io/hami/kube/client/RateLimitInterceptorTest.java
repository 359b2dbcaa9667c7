package io.hami.kube.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.http.StandardHttpRequest;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The rules of {@link RateLimitInterceptor} and {@link ApiRateLimit}, without an API server. */
class RateLimitInterceptorTest {

    static StandardHttpRequest get(String uri) {
        return new StandardHttpRequest(Map.of(), URI.create(uri), "GET", null);
    }

    @ParameterizedTest
    @CsvSource({
        "http://a/api/v1/nodes?watch=true,true",
        "http://a/api/v1/pods?allowWatchBookmarks=true&watch=true&resourceVersion=7,true",
        "http://a/api/v1/pods?watch=1,true",
        "http://a/api/v1/pods?watch=false,false",
        "http://a/api/v1/pods?limit=500,false",
        "http://a/api/v1/namespaces/watch/pods/watch,false",
        "http://a/api/v1/pods?fieldSelector=watch%3Dtrue,false"
    })
    void watchesAreToldApartByTheirQuery(String uri, boolean watch) {
        assertThat(RateLimitInterceptor.isWatch(URI.create(uri))).isEqualTo(watch);
    }

    @Test
    void fabric8sEventLoopAndSchedulerNeverWait() {
        assertThat(RateLimitInterceptor.mayBlock("vert.x-eventloop-thread-0")).isFalse();
        assertThat(RateLimitInterceptor.mayBlock("CachedSingleThreadScheduler-1234-pool-3-thread-1"))
                .isFalse();
        assertThat(RateLimitInterceptor.mayBlock("main")).isTrue();
        assertThat(RateLimitInterceptor.mayBlock("hami-bind-3")).isTrue();
    }

    @Test
    void theBucketGainsOneTokenEvery1OverQpsSeconds() {
        assertThat(new ApiRateLimit(5, 10).refillPeriod()).isEqualTo(Duration.ofMillis(200));
        assertThat(new ApiRateLimit(0.5, 1).refillPeriod()).isEqualTo(Duration.ofSeconds(2));
        assertThat(new ApiRateLimit(3e9, 1).refillPeriod()).isEqualTo(Duration.ofNanos(1));
        assertThat(ApiRateLimit.CLIENT_GO_DEFAULT).hasToString("--kube-qps 5, --kube-burst 10");
        assertThat(new ApiRateLimit(2.5, 3)).hasToString("--kube-qps 2.5, --kube-burst 3");
    }

    @Test
    void aRateOrBurstOutOfRangeIsRefusedWithTheFlagsName() {
        assertThatThrownBy(() -> new ApiRateLimit(0, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--kube-qps must be a positive number of requests a second, got 0");
        assertThatThrownBy(() -> new ApiRateLimit(Double.NaN, 10)).hasMessageContaining("got NaN");
        assertThatThrownBy(() -> new ApiRateLimit(Double.POSITIVE_INFINITY, 10)).hasMessageContaining("got Infinity");
        assertThatThrownBy(() -> new ApiRateLimit(5, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--kube-burst must be at least 1, got 0");
    }

    @Test
    void aThreadThatMustNotWaitOverdrawsTheBucketForThoseAfterIt() throws Exception {
        // One token every 20 s: a call that waited would take that long.
        var limiter = new RateLimitInterceptor(new ApiRateLimit(0.05, 1));
        limiter.before(null, get("http://a/api/v1/nodes"), null);
        assertThat(limiter.availableTokens()).isZero();

        var onEventLoop = new CompletableFuture<Void>();
        Thread loop = new Thread(
                () -> {
                    limiter.before(null, get("http://a/api/v1/pods?limit=500&continue=x"), null);
                    onEventLoop.complete(null);
                },
                "vert.x-eventloop-thread-7");
        loop.start();
        onEventLoop.get(10, TimeUnit.SECONDS);
        assertThat(limiter.availableTokens()).isEqualTo(-1);

        // A watch takes nothing, even from an empty bucket.
        limiter.before(null, get("http://a/api/v1/pods?watch=true"), null);
        assertThat(limiter.availableTokens()).isEqualTo(-1);
    }
}
