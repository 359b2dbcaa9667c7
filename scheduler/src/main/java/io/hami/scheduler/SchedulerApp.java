package io.hami.scheduler;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.http.RequestLimits;
import io.hami.kube.lock.NodeLockClient;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.bind.AbandonedDecisions;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.bind.Binder;
import io.hami.scheduler.cluster.ClusterWatch;
import io.hami.scheduler.cluster.NodeInventory;
import io.hami.scheduler.cluster.NodeSelector;
import io.hami.scheduler.events.CompositeObserver;
import io.hami.scheduler.events.EventRecorder;
import io.hami.scheduler.extender.Extender;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.extender.FitInputs;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.gang.GangLockWait;
import io.hami.scheduler.gang.GangWaits;
import io.hami.scheduler.gang.NodeLockQueue;
import io.hami.scheduler.handshake.HandshakeLoop;
import io.hami.scheduler.http.SchedulerHttpServer;
import io.hami.scheduler.leader.LeaderMode;
import io.hami.scheduler.leader.Leadership;
import io.hami.scheduler.metrics.MetricsServer;
import io.hami.scheduler.metrics.SchedulerMetrics;
import io.hami.scheduler.preempt.Preemption;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.requeue.Requeue;
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
     * What a scheduler process is started with, in named groups.
     *
     * @param http       where the extender and webhook listen
     * @param scheduling how pods are placed
     * @param replica    how this replica takes part next to others
     * @param metrics    what {@code /metrics} serves
     */
    public record Settings(Http http, Scheduling scheduling, Replica replica, Metrics metrics) {

        /**
         * The extender's and webhook's listener.
         *
         * @param bind     where the extender and webhook listen
         * @param certFile TLS certificate (PEM), or null for plain HTTP
         * @param keyFile  TLS key (PEM), or null
         * @param limits   how long and how much of a request the extender and metrics servers read
         *                 ({@code --http-header-timeout}, {@code --http-body-timeout})
         */
        public record Http(InetSocketAddress bind, Path certFile, Path keyFile, RequestLimits limits) {
            /** With the default request limits. */
            public Http(InetSocketAddress bind, Path certFile, Path keyFile) {
                this(bind, certFile, keyFile, RequestLimits.DEFAULTS);
            }

            /** Plain HTTP. */
            public Http(InetSocketAddress bind) {
                this(bind, null, null);
            }
        }

        /**
         * How pods are placed.
         *
         * @param schedulerName the name pods are scheduled by, and the events' source
         * @param policy        default node and device policies
         * @param lockTimeout   how long a node lock may be held by a pod still allocating
         * @param deviceConfig  resource names and defaults per vendor
         * @param nodeSelector  the nodes this scheduler considers ({@code --node-label-selector}); the others are not
         *                      watched, and filter answers them as unregistered
         * @param gangLockWait  how long a gang member's bind waits in line for a held node lock
         *                      ({@code --gang-lock-wait}; 0: not at all)
         */
        public record Scheduling(
                String schedulerName,
                SchedulingPolicy policy,
                Duration lockTimeout,
                DeviceConfig deviceConfig,
                NodeSelector nodeSelector,
                Duration gangLockWait) {
            public Scheduling {
                GangLockWait.check(gangLockWait);
            }

            /** Gang members wait {@link GangLockWait#DEFAULT}. */
            public Scheduling(
                    String schedulerName,
                    SchedulingPolicy policy,
                    Duration lockTimeout,
                    DeviceConfig deviceConfig,
                    NodeSelector nodeSelector) {
                this(schedulerName, policy, lockTimeout, deviceConfig, nodeSelector, GangLockWait.DEFAULT);
            }

            /** Every node. */
            public Scheduling(
                    String schedulerName, SchedulingPolicy policy, Duration lockTimeout, DeviceConfig deviceConfig) {
                this(schedulerName, policy, lockTimeout, deviceConfig, NodeSelector.ALL);
            }
        }

        /**
         * This replica's part among the others, and what it does for the cluster while it leads.
         *
         * @param leader           how this replica decides whether it leads
         * @param handshakePeriod  how often the handshake round runs (design D3 in docs/design.md#d3: 15 s)
         * @param requeueOnRelease whether the leader nudges pending pods back into kube-scheduler's queue when devices
         *                         they wait for are released ({@code --requeue-on-release}, {@link Requeue})
         */
        public record Replica(LeaderMode leader, Duration handshakePeriod, boolean requeueOnRelease) {
            /** Nudging pending pods on release, the default. */
            public Replica(LeaderMode leader, Duration handshakePeriod) {
                this(leader, handshakePeriod, true);
            }
        }

        /**
         * What {@code /metrics} serves, and where.
         *
         * @param bind             where {@code /metrics} is served, or null for no metrics endpoint
         * @param version          reported in {@code hami_build_info}
         * @param containerMetrics whether upstream's per-container gauges are served ({@code --container-metrics})
         */
        public record Metrics(InetSocketAddress bind, String version, boolean containerMetrics) {
            /** Without the per-container gauges, the default. */
            public Metrics(InetSocketAddress bind, String version) {
                this(bind, version, false);
            }
        }
    }

    private final UsageIndex index;
    private final SchedulerMetrics metrics;
    private final EventRecorder events;
    private final ClusterWatch watch;
    private final ScheduledExecutorService ticker;
    private final Leadership leadership;
    private final HandshakeLoop handshake;
    private final Extender extender;
    private final Binder binder;
    private final SchedulerHttpServer http;
    private final MetricsServer metricsServer;
    /** The requeue's own thread (patches must not hold up the handshake), or null without it. */
    private final ScheduledExecutorService requeueTimer;

    private final Requeue requeue;

    /** Starts everything; metrics go to {@code registry}, events to the API server. */
    public static SchedulerApp start(KubernetesClient client, Settings s, PrometheusRegistry registry, Clock clock)
            throws IOException, GeneralSecurityException {
        return start(client, s, registry, clock, FilterObserver.NONE, BindObserver.NONE);
    }

    /**
     * Starts everything, telling {@code filterObserver} and {@code bindObserver} of every filter and bind after the
     * metrics and events (the lab takes its latencies from them when the real kube-scheduler calls the extender).
     */
    public static SchedulerApp start(
            KubernetesClient client,
            Settings s,
            PrometheusRegistry registry,
            Clock clock,
            FilterObserver filterObserver,
            BindObserver bindObserver)
            throws IOException, GeneralSecurityException {
        var backends = DeviceBackends.load(s.scheduling().deviceConfig());
        if (backends.all().isEmpty()) {
            throw new IllegalStateException("no device backends on the class path");
        }
        return new SchedulerApp(client, s, backends, registry, clock, filterObserver, bindObserver);
    }

    /**
     * Two phases, in order. First the scheduler follows the cluster: the informers fill the usage index and nothing is
     * written or served. Then it takes part: leadership, the handshake rounds, and the extender, bind and webhook
     * endpoints. A node that goes and a leadership won are reported while this runs, so they reach the handshake
     * through this object; before the handshake exists there is nothing of it to forget or to run.
     */
    private SchedulerApp(
            KubernetesClient client,
            Settings s,
            DeviceBackends backends,
            PrometheusRegistry registry,
            Clock clock,
            FilterObserver filterObserver,
            BindObserver bindObserver)
            throws IOException, GeneralSecurityException {
        // Phase 1: follow the cluster.
        index = new UsageIndex();
        metrics = new SchedulerMetrics(registry, s.metrics().version());
        metrics.registerDeviceUsage(index);
        events = new EventRecorder(client, s.scheduling().schedulerName(), registry, clock);
        var inventory = new NodeInventory(index, backends);
        var quotas = new QuotaBook(backends, index);
        metrics.registerQuotas(quotas);
        var gangLine = new NodeLockQueue();
        watch = new ClusterWatch(
                client,
                index,
                inventory,
                quotas,
                backends,
                new ClusterWatch.NodeEvents() {
                    @Override
                    public void lockReleased(String node, Duration held) {
                        metrics.lockReleased(node, held);
                        gangLine.released(node); // the first gang member waiting there tries now
                    }

                    @Override
                    public void undecodable(String resource) {
                        metrics.undecodable(resource);
                    }

                    @Override
                    public void gone(String node) {
                        nodeGone(node);
                    }
                },
                clock,
                s.scheduling().nodeSelector());
        if (s.metrics().containerMetrics()) {
            metrics.registerContainerGrants(watch::pods, backends);
        }
        if (s.scheduling().nodeSelector().all()) {
            LOG.info(
                    "informers synced: {} nodes with devices", index.nodeNames().size());
        } else {
            LOG.info(
                    "informers synced: {} nodes with devices among those labelled {}",
                    index.nodeNames().size(),
                    s.scheduling().nodeSelector());
        }

        // Phase 2: take part. A new leader answers the handshake at once rather than at the next period.
        ticker = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("hami-handshake").daemon().factory());
        leadership = Leadership.start(client, s.replica().leader(), clock, () -> ticker.execute(this::handshakeRound));
        handshake = new HandshakeLoop(
                client, backends, inventory, watch::nodes, leadership, clock, CompositeObserver.handshake(metrics));
        var unused = ticker.scheduleWithFixedDelay(
                this::handshakeRound, 0, s.replica().handshakePeriod().toMillis(), TimeUnit.MILLISECONDS);

        if (s.replica().requeueOnRelease()) {
            requeueTimer = Executors.newSingleThreadScheduledExecutor(
                    Thread.ofPlatform().name("hami-requeue").daemon().factory());
            requeue = new Requeue(
                    backends,
                    Requeue.Patcher.of(client),
                    AbandonedDecisions.Timer.of(requeueTimer),
                    leadership,
                    clock,
                    metrics::requeueNudged);
            index.listen(requeue);
        } else {
            requeueTimer = null;
            requeue = null;
        }

        var policy = s.scheduling().policy();
        var fit = new FitInputs(index, quotas, backends, policy);
        var selector = s.scheduling().nodeSelector();
        var nodes = new Extender.Nodes(
                selector::matches,
                selector.all() ? Denial.UNREGISTERED : Denial.unselected(selector.toString()),
                watch::locked);
        extender = new Extender(new Extender.Inputs(
                fit,
                leadership,
                requeue == null
                        ? CompositeObserver.filter(metrics, events, filterObserver)
                        : CompositeObserver.filter(metrics, events, filterObserver, requeue),
                nodes));
        var locks = new NodeLockClient(
                client, s.scheduling().lockTimeout(), clock, new NodeLockClient.Cached(watch::node, watch::pod));
        var cluster = new Binder.Cluster(
                client,
                locks,
                clock,
                watch.podsHorizon()::reached,
                new AbandonedDecisions(client, AbandonedDecisions.Timer.of(ticker), AbandonedDecisions.BACKOFF));
        binder = new Binder(new Binder.Inputs(
                fit,
                cluster,
                leadership,
                CompositeObserver.bind(metrics, events, bindObserver),
                new GangWaits(s.scheduling().gangLockWait(), gangLine)));
        var webhook = new WebhookHandler(
                new AdmissionRules(backends, s.scheduling().schedulerName(), ns -> quotas.rooms(ns, null)), backends);
        // An elected leader alone is ready, so the webhook Service routes only there. Followers are all ready: each
        // serves the webhook, and kube-scheduler reaches filter and bind in its own pod, not through the Service.
        boolean readyWhenFollowing = s.replica().leader() instanceof LeaderMode.Follow;
        var routes = new SchedulerHttpServer.Routes(
                extender::filter,
                extender::prioritize,
                binder::bind,
                webhook,
                () -> (readyWhenFollowing || leadership.getAsBoolean()) && watch.current(),
                new Preemption(index, quotas, backends, policy, leadership, watch::pods, watch::node, registry)
                        ::preempt);
        http = SchedulerHttpServer.start(
                s.http().bind(),
                s.http().certFile(),
                s.http().keyFile(),
                routes,
                s.http().limits());
        metricsServer = s.metrics().bind() == null
                ? null
                : MetricsServer.start(
                        s.metrics().bind(), metrics.exposition(), s.http().limits());
    }

    /** A node left the cluster: its series and what the handshake remembers of it go. */
    private void nodeGone(String node) {
        metrics.forgetNode(node);
        HandshakeLoop loop = handshake; // null while phase 1 runs: nothing remembered yet
        if (loop != null) {
            loop.forget(node);
        }
    }

    private void handshakeRound() {
        HandshakeLoop loop = handshake;
        if (loop == null) {
            return; // elected before the handshake was built; the first scheduled round follows at once
        }
        try {
            loop.round();
        } catch (RuntimeException e) {
            LOG.error("handshake round failed", e);
        }
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

    /** The requeue on release, or null when it is off. */
    public Requeue requeue() {
        return requeue;
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
        if (requeueTimer != null) {
            requeueTimer.shutdownNow();
        }
        leadership.close();
        watch.close();
        events.close();
    }
}
