package io.hami.plugin;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.kube.client.KubeClients;
import io.hami.kube.events.PodEvents;
import io.hami.plugin.config.LibraryRetry;
import io.hami.plugin.metrics.MetricsEndpoint;
import io.hami.plugin.metrics.PluginMetrics;
import io.hami.plugin.register.RegisterWithdrawal;
import io.hami.plugin.vendor.VendorPlugins;
import io.hami.protocol.spi.DeviceBackend;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.VendorKeys;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What {@code hami plugin} runs: a {@link PluginApp} that outlives a vendor library it cannot use (issue 26). When
 * the library is missing, damaged or its init fails, the process stays up instead of exiting into the DaemonSet's
 * restart back-off: it registers nothing with the kubelet (so the node's Allocatable count of the vendor falls to 0,
 * which the scheduler reads as no devices, design D3), rewrites a register annotation left by an earlier run with
 * every card unhealthy ({@link RegisterWithdrawal}), logs the cause, writes a Warning event
 * {@value #UNUSABLE} on its Node (again only for a new cause or after {@link LibraryRetry#eventRepeat()}), serves
 * {@code hami_plugin_vendor_library_usable 0}, and tries again with a doubling wait ({@link LibraryRetry}). Once the
 * library can be used it starts as on a good start, with a Normal event {@value #USABLE}. Any other start failure (a
 * port in use, no devices on a library that works at the first try) still fails {@link #start} at once, and so does a
 * library that cannot be used when there is no retry ({@code --exit-on-library-error}).
 */
public final class PluginProcess implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PluginProcess.class);
    /** Reason of the Warning event on the Node while the vendor library cannot be used. */
    public static final String UNUSABLE = "VendorLibraryUnusable";
    /** Reason of the Normal event on the Node once it can be used after all. */
    public static final String USABLE = "VendorLibraryUsable";

    private final KubernetesClient client;
    private final boolean ownsClient;
    private final PluginApp.Settings settings;
    private final Clock clock;
    private final DeviceBackends backends;
    private final PluginMetrics metrics;
    private final Optional<MetricsEndpoint> endpoint;
    private final PodEvents events;
    /** Empty: a library that cannot be used fails the start. */
    private final Optional<LibraryRetry> retry;

    private final Optional<VendorKeys> keys;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final CountDownLatch started = new CountDownLatch(1);
    private final Object lock = new Object();
    private PluginApp app;
    private boolean closed;
    private Thread retrier;
    // Only the starting thread, then the retrier, touch these.
    private volatile int failures;
    private String lastEvent;
    private Instant lastEventAt;
    private String nodeUid;
    private boolean withdrawn;

    private PluginProcess(
            KubernetesClient client,
            boolean ownsClient,
            PluginApp.Settings settings,
            Clock clock,
            DeviceBackends backends,
            PluginMetrics metrics,
            Optional<MetricsEndpoint> endpoint,
            Optional<LibraryRetry> retry) {
        this.client = client;
        this.ownsClient = ownsClient;
        this.settings = settings;
        this.clock = clock;
        this.backends = backends;
        this.metrics = metrics;
        this.endpoint = endpoint;
        this.retry = retry;
        this.events = new PodEvents(
                client,
                PluginStarter.EVENT_COMPONENT,
                settings.nodeName(),
                clock,
                PodEvents.writer("hami-plugin-node-events", 16),
                Duration.ofSeconds(2),
                metrics::eventNotWritten);
        this.keys = VendorPlugins.load()
                .byName(settings.backend())
                .vendor()
                .flatMap(backends::byVendor)
                .map(DeviceBackend::keys);
    }

    /**
     * Connects to the cluster of {@code settings.kubeconfig()} (closed with the process) and starts; {@code retry}
     * empty: a library that cannot be used fails the start.
     */
    public static PluginProcess start(
            PluginApp.Settings settings, Optional<InetSocketAddress> metricsBind, Optional<LibraryRetry> retry)
            throws PluginStartException {
        KubernetesClient client;
        try {
            client = KubeClients.connect(settings.kubeconfig());
        } catch (IOException e) {
            throw new PluginStartException("cannot connect to the cluster: " + e.getMessage(), e);
        }
        try {
            return start(client, true, settings, Clock.systemUTC(), metricsBind, retry);
        } catch (PluginStartException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** Starts with {@code client}, which the caller keeps and closes. */
    public static PluginProcess start(
            KubernetesClient client,
            PluginApp.Settings settings,
            Clock clock,
            Optional<InetSocketAddress> metricsBind,
            Optional<LibraryRetry> retry)
            throws PluginStartException {
        return start(client, false, settings, clock, metricsBind, retry);
    }

    private static PluginProcess start(
            KubernetesClient client,
            boolean ownsClient,
            PluginApp.Settings s,
            Clock clock,
            Optional<InetSocketAddress> metricsBind,
            Optional<LibraryRetry> retry)
            throws PluginStartException {
        DeviceBackends backends = DeviceBackends.load(s.deviceConfig());
        PrometheusRegistry registry = new PrometheusRegistry();
        PluginMetrics metrics = new PluginMetrics(registry, s.nodeName(), s.backend());
        // Owned by the process, not by one PluginApp: /metrics answers while the library is waited for.
        Optional<MetricsEndpoint> endpoint = PluginStarter.metricsEndpoint(metricsBind, registry);
        PluginProcess process = new PluginProcess(client, ownsClient, s, clock, backends, metrics, endpoint, retry);
        try {
            process.app = process.startApp();
            process.started.countDown();
        } catch (PluginStartException e) {
            if (!e.vendorLibrary() || retry.isEmpty()) {
                process.close();
                throw e;
            }
            Duration wait = process.unusable(e.getMessage());
            process.retrier =
                    Thread.ofPlatform().name("hami-library-retry").daemon().start(() -> process.retryAfter(wait));
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
        endpoint.ifPresent(m -> LOG.info("metrics on http://{}/metrics", PluginStarter.hostPort(m.address())));
        return process;
    }

    /** Tries to start again after {@code wait}, and after each failure the next wait, until it starts or is closed. */
    private void retryAfter(Duration wait) {
        while (true) {
            try {
                if (closing.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
            PluginApp attempt;
            try {
                attempt = startApp();
            } catch (PluginStartException | RuntimeException e) {
                // Once the library is back any failure is waited out the same way: this thread is the only one
                // left that could start the plugin, and the process has no one to exit to.
                wait = unusable(e.getMessage());
                continue;
            }
            synchronized (lock) {
                if (!closed) {
                    app = attempt;
                    attempt = null;
                }
            }
            if (attempt != null) {
                attempt.close();
                return;
            }
            started.countDown();
            LOG.info(
                    "the {} plugin can use its vendor library after {} failed attempts: its devices are served",
                    settings.backend(),
                    failures);
            events.emitOnNode(
                    settings.nodeName(),
                    nodeUid,
                    "Normal",
                    USABLE,
                    "the " + settings.backend() + " plugin can use its vendor library after " + failures
                            + " failed attempts; its devices are registered with the kubelet");
            return;
        }
    }

    /** One attempt at the plugin; the endpoint is the process's, so that it answers between attempts. */
    private PluginApp startApp() throws PluginStartException {
        return new PluginStarter(client, settings, clock, backends, metrics).start(Optional.empty());
    }

    /** Reports one failed attempt ({@code cause}: what the start said) and says how long to wait for the next. */
    private Duration unusable(String cause) {
        failures++;
        Duration wait = retry.orElseThrow().delayAfter(failures);
        LOG.warn(
                "{}; no device is registered with the kubelet; trying again in {} (attempt {})",
                cause,
                readable(wait),
                failures);
        Optional<Node> node = readNode();
        node.map(n -> n.getMetadata().getUid()).ifPresent(uid -> nodeUid = uid);
        Instant now = clock.instant();
        if (retry.orElseThrow().eventDue(lastEvent, lastEventAt, cause, now)) {
            events.emitOnNode(settings.nodeName(), nodeUid, "Warning", UNUSABLE, cause);
            lastEvent = cause;
            lastEventAt = now;
        }
        if (!withdrawn && node.isPresent()) {
            withdraw(node.get());
        }
        return wait;
    }

    /** {@code 10 s}, {@code 5 min}; milliseconds only for the short waits of tests. */
    static String readable(Duration d) {
        if (d.toMillis() % 1000 != 0) {
            return d.toMillis() + " ms";
        }
        return d.toSeconds() % 60 == 0 ? d.toMinutes() + " min" : d.toSeconds() + " s";
    }

    private Optional<Node> readNode() {
        try {
            return Optional.ofNullable(
                    client.nodes().withName(settings.nodeName()).get());
        } catch (KubernetesClientException e) {
            LOG.warn("cannot read node {}: {}", settings.nodeName(), e.getMessage());
            return Optional.empty();
        }
    }

    /** Marks the cards of an earlier run's register annotation unhealthy, once; a failed patch is tried next time. */
    private void withdraw(Node node) {
        if (keys.isEmpty()) {
            withdrawn = true;
            return;
        }
        try {
            switch (RegisterWithdrawal.withdraw(client, node, keys.get(), metrics)) {
                case RegisterWithdrawal.Outcome.Rewritten r ->
                    LOG.warn(
                            "node {}: the {} cards of {} are published unhealthy until the vendor library can be used",
                            settings.nodeName(),
                            r.cards(),
                            keys.get().registerKey().orElseThrow());
                case RegisterWithdrawal.Outcome.Unreadable u ->
                    LOG.warn(
                            "node {}: {} left as it is, it cannot be read: {}",
                            settings.nodeName(),
                            keys.get().registerKey().orElseThrow(),
                            u.reason());
                case RegisterWithdrawal.Outcome.NothingToWithdraw n -> {}
            }
            withdrawn = true;
        } catch (KubernetesClientException e) {
            LOG.warn("node {}: cannot mark the cards unhealthy, trying again: {}", settings.nodeName(), e.getMessage());
        }
    }

    /** The running plugin, once the vendor library could be used; empty while it is waited for. */
    public Optional<PluginApp> app() {
        synchronized (lock) {
            return Optional.ofNullable(app);
        }
    }

    /** Waits until the plugin runs on its vendor library (at once after a good start). */
    public boolean awaitStarted(Duration timeout) throws InterruptedException {
        return started.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Failed attempts to use the vendor library so far. */
    public int failedAttempts() {
        return failures;
    }

    /** Where {@code /metrics} is served (the port chosen when 0 was asked for); empty when it is not. */
    public Optional<InetSocketAddress> metricsAddress() {
        return endpoint.map(MetricsEndpoint::address);
    }

    /** Stops retrying, then closes the plugin (its sockets removed), the events, {@code /metrics} and an own client. */
    @Override
    public void close() {
        PluginApp running;
        synchronized (lock) {
            closed = true;
            running = app;
            app = null;
        }
        closing.countDown();
        if (retrier != null) {
            try {
                // An attempt under way is finished, and what it opened closed, by the retrier itself.
                retrier.join(Duration.ofSeconds(30));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (running != null) {
            running.close();
        }
        events.close();
        endpoint.ifPresent(MetricsEndpoint::close);
        if (ownsClient) {
            client.close();
        }
    }
}
