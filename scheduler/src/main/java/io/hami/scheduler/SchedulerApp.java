package io.hami.scheduler;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.lock.NodeLockClient;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.bind.AbandonedDecisions;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.bind.Binder;
import io.hami.scheduler.cluster.ClusterWatch;
import io.hami.scheduler.cluster.NodeInventory;
import io.hami.scheduler.events.CompositeObserver;
import io.hami.scheduler.events.EventRecorder;
import io.hami.scheduler.extender.Extender;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.handshake.HandshakeLoop;
import io.hami.scheduler.http.SchedulerHttpServer;
import io.hami.scheduler.leader.LeaderMode;
import io.hami.scheduler.leader.Leadership;
import io.hami.scheduler.metrics.MetricsServer;
import io.hami.scheduler.metrics.SchedulerMetrics;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.UsageIndex;
import io.hami.scheduler.webhook.AdmissionRules;
import io.hami.scheduler.webhook.WebhookHandler;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The whole scheduler process: informers, usage index, handshake loop, leader election and HTTP endpoints. */
public final class SchedulerApp implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerApp.class);

    /**
     * @param httpBind         where the extender and webhook listen
     * @param certFile         TLS certificate (PEM), or null for plain HTTP
     * @param keyFile          TLS key (PEM), or null
     * @param schedulerName    the name pods are scheduled by, and the events' source
     * @param policy           default node and device policies
     * @param lockTimeout      how long a node lock may be held by a pod still allocating
     * @param deviceConfig     resource names and defaults per vendor
     * @param leader           how this replica decides whether it leads
     * @param handshakePeriod  how often the handshake round runs (D3: 15 s)
     * @param metricsBind      where {@code /metrics} is served, or null for no metrics endpoint
     * @param version          reported in {@code hami_build_info}
     * @param containerMetrics whether upstream's per-container gauges are served ({@code --container-metrics})
     */
    public record Settings(InetSocketAddress httpBind, Path certFile, Path keyFile, String schedulerName,
                           SchedulingPolicy policy, Duration lockTimeout, DeviceConfig deviceConfig,
                           LeaderMode leader, Duration handshakePeriod,
                           InetSocketAddress metricsBind, String version, boolean containerMetrics) {
        /** Without the per-container gauges, the default. */
        public Settings(InetSocketAddress httpBind, Path certFile, Path keyFile, String schedulerName,
                        SchedulingPolicy policy, Duration lockTimeout, DeviceConfig deviceConfig,
                        LeaderMode leader, Duration handshakePeriod, InetSocketAddress metricsBind, String version) {
            this(httpBind, certFile, keyFile, schedulerName, policy, lockTimeout, deviceConfig, leader, handshakePeriod,
                    metricsBind, version, false);
        }
    }

    private final UsageIndex index;
    private final ClusterWatch watch;
    private final Leadership leadership;
    private final ScheduledExecutorService ticker;
    private final SchedulerHttpServer http;
    private final Extender extender;
    private final Binder binder;
    private final HandshakeLoop handshake;
    private final EventRecorder events;
    private final MetricsServer metricsServer;

    private SchedulerApp(UsageIndex index, ClusterWatch watch, Leadership leadership, ScheduledExecutorService ticker,
                         SchedulerHttpServer http, Extender extender, Binder binder, HandshakeLoop handshake,
                         EventRecorder events, MetricsServer metricsServer) {
        this.index = index;
        this.watch = watch;
        this.leadership = leadership;
        this.ticker = ticker;
        this.http = http;
        this.extender = extender;
        this.binder = binder;
        this.handshake = handshake;
        this.events = events;
        this.metricsServer = metricsServer;
    }

    /** Starts everything; metrics go to {@code registry}, events to the API server. */
    public static SchedulerApp start(KubernetesClient client, Settings s, PrometheusRegistry registry, Clock clock)
            throws IOException, GeneralSecurityException {
        return start(client, s, registry, clock, FilterObserver.NONE, BindObserver.NONE);
    }

    /**
     * Starts everything, telling {@code filterObserver} and {@code bindObserver} of every filter and bind after the
     * metrics and events (the lab takes its latencies from them when the real kube-scheduler calls the extender).
     */
    public static SchedulerApp start(KubernetesClient client, Settings s, PrometheusRegistry registry, Clock clock,
                                     FilterObserver filterObserver, BindObserver bindObserver)
            throws IOException, GeneralSecurityException {
        var backends = DeviceBackends.load(s.deviceConfig());
        if (backends.all().isEmpty()) {
            throw new IllegalStateException("no device backends on the class path");
        }
        var index = new UsageIndex();
        var metrics = new SchedulerMetrics(registry, s.version());
        metrics.registerDeviceUsage(index);
        var events = new EventRecorder(client, s.schedulerName(), registry, clock);
        var inventory = new NodeInventory(index, backends);
        HandshakeLoop[] loop = new HandshakeLoop[1];
        var quotas = new QuotaBook(backends, index);
        metrics.registerQuotas(quotas);
        var watch = new ClusterWatch(client, index, inventory, quotas, backends, new ClusterWatch.NodeEvents() {
            @Override
            public void lockReleased(String node, Duration held) {
                metrics.lockReleased(node, held);
            }

            @Override
            public void undecodable(String resource) {
                metrics.undecodable(resource);
            }

            @Override
            public void gone(String node) {
                metrics.forgetNode(node);
                if (loop[0] != null) {
                    loop[0].forget(node);
                }
            }
        }, clock);
        if (s.containerMetrics()) {
            metrics.registerContainerGrants(watch::pods, backends);
        }
        LOG.info("informers synced: {} nodes with devices", index.nodeNames().size());

        var ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name("hami-handshake").daemon().factory());
        // A new leader answers the handshake at once rather than at the next period.
        Leadership leadership = Leadership.start(client, s.leader(), clock, () -> ticker.execute(() -> {
            if (loop[0] != null) {
                loop[0].round();
            }
        }));
        loop[0] = new HandshakeLoop(client, backends, inventory, watch::nodes, leadership, clock, CompositeObserver.handshake(metrics));
        ticker.scheduleWithFixedDelay(() -> {
            try {
                loop[0].round();
            } catch (RuntimeException e) {
                LOG.error("handshake round failed", e);
            }
        }, 0, s.handshakePeriod().toMillis(), TimeUnit.MILLISECONDS);

        var locks = new NodeLockClient(client, s.lockTimeout(), clock, new NodeLockClient.Cached(watch::node, watch::pod));
        var extender = new Extender(index, quotas, backends, s.policy(), leadership, CompositeObserver.filter(metrics, events, filterObserver),
                watch::locked);
        var binder = new Binder(client, locks, index, quotas, backends, s.policy(), leadership, clock, CompositeObserver.bind(metrics, events, bindObserver),
                new AbandonedDecisions(client, AbandonedDecisions.Timer.of(ticker), AbandonedDecisions.BACKOFF));
        var webhook = new WebhookHandler(new AdmissionRules(backends, s.schedulerName(), ns -> quotas.rooms(ns, null)), backends);
        // An elected leader alone is ready, so the webhook Service routes only there. Followers are all ready: each
        // serves the webhook, and kube-scheduler reaches filter and bind in its own pod, not through the Service.
        boolean readyWhenFollowing = s.leader() instanceof LeaderMode.Follow;
        var routes = new SchedulerHttpServer.Routes(extender::filter, extender::prioritize, binder::bind, webhook,
                () -> (readyWhenFollowing || leadership.getAsBoolean()) && watch.current());
        var http = SchedulerHttpServer.start(s.httpBind(), s.certFile(), s.keyFile(), routes);
        var metricsServer = s.metricsBind() == null ? null : MetricsServer.start(s.metricsBind(), metrics.exposition());
        return new SchedulerApp(index, watch, leadership, ticker, http, extender, binder, loop[0], events, metricsServer);
    }

    public InetSocketAddress address() {
        return http.address();
    }

    /** Where {@code /metrics} is served, or null. */
    public InetSocketAddress metricsAddress() {
        return metricsServer == null ? null : metricsServer.address();
    }

    public UsageIndex index() {
        return index;
    }

    public ClusterWatch watch() {
        return watch;
    }

    public Extender extender() {
        return extender;
    }

    public Binder binder() {
        return binder;
    }

    public HandshakeLoop handshake() {
        return handshake;
    }

    public boolean isLeader() {
        return leadership.getAsBoolean();
    }

    @Override
    public void close() {
        http.close();
        if (metricsServer != null) {
            metricsServer.close();
        }
        ticker.shutdownNow();
        leadership.close();
        watch.close();
        events.close();
    }
}
