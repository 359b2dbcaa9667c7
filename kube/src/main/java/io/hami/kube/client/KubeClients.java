package io.hami.kube.client;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Connects to a cluster the way operators expect: an explicit kubeconfig, else the in-cluster service
 * account, else {@code ~/.kube/config}; with fabric8's retries bounded (see {@link #bounded}).
 */
public final class KubeClients {
    private static final Path SERVICE_ACCOUNT_TOKEN = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/token");
    /** TCP and TLS connect to the API server. */
    public static final int CONNECTION_TIMEOUT_MS = 5_000;
    /**
     * One request, per try. fabric8's default; not lower, because one page of an informer's first LIST (the
     * scheduler's take 500 objects a page) and a bind's LIST of a node's pods must fit in it on a loaded API server.
     */
    public static final int REQUEST_TIMEOUT_MS = 10_000;
    /** Retries of one request after a 5xx or 429 answer or an I/O error (fabric8's default: 10). */
    public static final int RETRIES = 1;
    /** Wait before that retry (a longer Retry-After wins). */
    public static final int RETRY_BACKOFF_MS = 250;

    private KubeClients() {}

    /** @param kubeconfig a kubeconfig file, or null for in-cluster then {@code ~/.kube/config} */
    public static KubernetesClient connect(Path kubeconfig) throws IOException {
        return connect(kubeconfig, Duration.ofMillis(REQUEST_TIMEOUT_MS));
    }

    /**
     * As {@link #connect(Path)}, with {@code requestTimeout} (positive) for each request instead of
     * {@link #REQUEST_TIMEOUT_MS} (the scheduler's {@code --kube-timeout}).
     */
    public static KubernetesClient connect(Path kubeconfig, Duration requestTimeout) throws IOException {
        return connect(kubeconfig, requestTimeout, Optional.empty());
    }

    /**
     * As {@link #connect(Path, Duration)}, every request but watches first waiting for a token of {@code rateLimit}
     * when present (the scheduler's {@code --kube-qps}, {@code --kube-burst}; see {@link RateLimitInterceptor}).
     */
    public static KubernetesClient connect(Path kubeconfig, Duration requestTimeout, Optional<ApiRateLimit> rateLimit)
            throws IOException {
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("request timeout must be positive, got " + requestTimeout);
        }
        Config config = bounded(config(kubeconfig));
        config.setRequestTimeout((int) Math.min(Integer.MAX_VALUE, requestTimeout.toMillis()));
        var builder = new KubernetesClientBuilder().withConfig(config);
        rateLimit.ifPresent(limit -> builder.withHttpClientBuilderConsumer(
                http -> http.addOrReplaceInterceptor(RateLimitInterceptor.NAME, new RateLimitInterceptor(limit))));
        return builder.build();
    }

    /**
     * Bounds fabric8's retries and timeouts on {@code config} and returns it. A bind must answer within
     * kube-scheduler's extender {@code httpTimeout} (30 s in deploy/) and stops at its first failed request. fabric8
     * retries a 5xx, a 429 (after its Retry-After) and an I/O error 10 times by default, with exponential backoff up
     * to 3.2 s: one failing request alone could take half a minute. Here it is tried at most twice, 250 ms (or the
     * Retry-After) apart; a request timeout is not retried. So a bind with one failing step answers within about
     * 10 s plus its other requests, and kube-scheduler retries the pod; an Allocate likewise. 409 and other 4xx
     * answers are never retried by fabric8: our callers decide.
     */
    public static Config bounded(Config config) {
        // Set in place, not copied through a builder: a copy could lose what refreshes an in-cluster token.
        config.setConnectionTimeout(CONNECTION_TIMEOUT_MS);
        config.setRequestTimeout(REQUEST_TIMEOUT_MS);
        config.setRequestRetryBackoffLimit(RETRIES);
        config.setRequestRetryBackoffInterval(RETRY_BACKOFF_MS);
        return config;
    }

    /**
     * The configuration of {@code kubeconfig}, read as kubectl reads it ({@link KubeconfigCredentials}: every client
     * key form, {@code exec} and {@code tokenFile}, errors naming the file, the user and the cause).
     */
    static Config config(Path kubeconfig) throws IOException {
        if (kubeconfig != null) {
            return KubeconfigCredentials.load(kubeconfig);
        }
        if (System.getenv("KUBERNETES_SERVICE_HOST") != null && Files.isReadable(SERVICE_ACCOUNT_TOKEN)) {
            return Config.autoConfigure(null);
        }
        Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
        if (Files.isReadable(home)) {
            return KubeconfigCredentials.load(home);
        }
        throw new IOException("no cluster to connect to: pass --kubeconfig, run in a pod, or create " + home);
    }
}
