package io.hami.scheduler.metrics;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.kube.lock.LockOutcome;
import io.hami.protocol.health.HealthVerdict;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.fit.Denial;
import io.hami.scheduler.handshake.HandshakeObserver;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * The scheduler's Prometheus metrics: upstream's device gauges plus what upstream lacks for operating a
 * replicated extender (filter denials by reason, node-lock contention, handshake state). Metrics are recorded
 * from the filter, bind and handshake observer calls; device gauges are read from the usage index per scrape.
 *
 * <p>Per-node series exist only where an operator needs to find the node (lock counters, handshake state);
 * histograms carry no node label so their series count does not grow with the cluster.
 */
public final class SchedulerMetrics implements FilterObserver, BindObserver, HandshakeObserver {
    static final String HANDSHAKE_STATE = "hami_handshake_state";
    private static final MetricMetadata HANDSHAKE_META = new MetricMetadata(
            HANDSHAKE_STATE,
            "Handshake state per node and vendor in the last round: healthy, pending (asked, not yet answered) or unhealthy; always 1");

    private static final double[] FILTER_BUCKETS = {
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1
    };
    private static final double[] API_BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
    private static final double[] GANG_WAIT_BUCKETS = {0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 25};
    private static final double[] HOLD_BUCKETS = {0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600};

    private final PrometheusRegistry registry;
    private final Histogram filterDuration;
    private final Counter filterDenials;
    private final Histogram bindDuration;
    private final Histogram lockAcquireDuration;
    private final Counter lockContention;
    private final Counter lockFailures;
    private final Histogram lockHold;
    private final Histogram gangLockWait;
    private final Counter gangLockContention;
    private final Counter undecodable;
    private final Counter requeueNudges;
    /** Node to vendor to the labels of the state of its last handshake verdict (built only when the state changes). */
    private final Map<String, Map<String, Labels>> handshake = new ConcurrentHashMap<>();
    /** The device gauges as the server writes them; null until {@link #registerDeviceUsage}. */
    private volatile DeviceSeries devices;

    public SchedulerMetrics(PrometheusRegistry registry, String version) {
        this.registry = registry;
        Gauge buildInfo = Gauge.builder()
                .name("hami_build_info")
                .help("A metric with a constant '1' value labeled by version")
                .labelNames("version")
                .register(registry);
        buildInfo.labelValues(version).set(1);
        filterDuration = Histogram.builder()
                .name("hami_filter_duration_seconds")
                .help("Time filter spent fitting one pod on its candidate nodes")
                .classicOnly()
                .classicUpperBounds(FILTER_BUCKETS)
                .register(registry);
        filterDenials = Counter.builder()
                .name("hami_filter_denials_total")
                .help("Nodes filter rejected, once per reason kind per node")
                .labelNames("reason")
                .register(registry);
        bindDuration = Histogram.builder()
                .name("hami_bind_duration_seconds")
                .help("Time of one bind call, from reading the pod to the binding or the failure")
                .labelNames("result")
                .classicOnly()
                .classicUpperBounds(API_BUCKETS)
                .register(registry);
        lockAcquireDuration = Histogram.builder()
                .name("hami_node_lock_acquire_duration_seconds")
                .help("Time bind spent asking for the node lock, by outcome")
                .labelNames("outcome")
                .classicOnly()
                .classicUpperBounds(API_BUCKETS)
                .register(registry);
        lockContention = Counter.builder()
                .name("hami_node_lock_contention_total")
                .help("Binds refused because another pod held the node lock")
                .labelNames("node")
                .register(registry);
        lockFailures = Counter.builder()
                .name("hami_node_lock_failures_total")
                .help("Binds whose node lock could not be read or written")
                .labelNames("node")
                .register(registry);
        lockHold = Histogram.builder()
                .name("hami_node_lock_hold_seconds")
                .help("How long a node lock was held, from its annotation appearing to its removal")
                .classicOnly()
                .classicUpperBounds(HOLD_BUCKETS)
                .register(registry);
        gangLockWait = Histogram.builder()
                .name("hami_gang_lock_wait_seconds")
                .help("Time gang members' binds waited in line for a held node lock (--gang-lock-wait), by outcome")
                .labelNames("outcome")
                .classicOnly()
                .classicUpperBounds(GANG_WAIT_BUCKETS)
                .register(registry);
        gangLockContention = Counter.builder()
                .name("hami_gang_lock_contention_total")
                .help("Gang members' binds refused for node lock contention after waiting their whole --gang-lock-wait")
                .register(registry);
        undecodable = Counter.builder()
                .name("hami_undecodable_objects_total")
                .help(
                        "Objects the informers could not decode and skipped (a pod or node that cannot be read fails its node closed)")
                .labelNames("resource")
                .register(registry);
        requeueNudges = Counter.builder()
                .name("hami_requeue_nudges_total")
                .help("Pending pods patched with hami.io/requeue-after-release after devices of a vendor they wait for"
                        + " were released (--requeue-on-release)")
                .register(registry);
        registry.register(this::handshakeSnapshot);
    }

    /** A pending pod was nudged back into kube-scheduler's queue after a release. */
    public void requeueNudged() {
        requeueNudges.inc();
    }

    /** An object of {@code resource} (pods, nodes, resourcequotas) was skipped because it cannot be decoded. */
    public void undecodable(String resource) {
        undecodable.labelValues(resource).inc();
    }

    /** Serves the device gauges from {@code index}; separate because the index is built after the observers. */
    public void registerDeviceUsage(UsageIndex index) {
        registry.register(new DeviceUsageCollector(index));
        registry.register(() -> DeviceUsageCollector.undecodable(index));
        devices = new DeviceSeries(index);
    }

    /** The registry as the {@code /metrics} server writes it, the device gauges from lines kept per node. */
    public Exposition exposition() {
        return new Exposition(registry, devices);
    }

    /** Serves the per-container grant gauges from the pods as {@code pods} lists them. */
    public void registerContainerGrants(Supplier<List<Pod>> pods, DeviceBackends backends) {
        registry.register(new ContainerGrantCollector(pods, backends));
    }

    /** Serves the quota gauges from {@code quotas}. */
    public void registerQuotas(QuotaBook quotas) {
        registry.register(new QuotaCollector(quotas));
    }

    @Override
    public void filtered(Pod pod, List<String> fitting, Map<String, Denial> failed, Duration took) {
        filterDuration.observe(seconds(took));
        failed.values()
                .forEach(denial -> denial.labels()
                        .forEach(k -> filterDenials.labelValues(k).inc()));
    }

    @Override
    public void bound(Pod pod, String node, Duration took) {
        bindDuration.labelValues("bound").observe(seconds(took));
    }

    @Override
    public void bindFailed(Pod pod, String node, String message, Duration took) {
        bindDuration.labelValues("failed").observe(seconds(took));
    }

    @Override
    public void lock(String node, LockOutcome outcome, Duration took) {
        String label = switch (outcome) {
            case LockOutcome.Acquired a -> "acquired";
            case LockOutcome.Contended c -> {
                lockContention.labelValues(node).inc();
                yield "contended";
            }
            case LockOutcome.Failed f -> {
                lockFailures.labelValues(node).inc();
                yield "failed";
            }
        };
        lockAcquireDuration.labelValues(label).observe(seconds(took));
    }

    @Override
    public void gangWaited(String node, LockOutcome outcome, Duration waited) {
        String label = switch (outcome) {
            case LockOutcome.Acquired a -> "acquired";
            case LockOutcome.Contended c -> {
                gangLockContention.inc();
                yield "contended";
            }
            case LockOutcome.Failed f -> "failed";
        };
        gangLockWait.labelValues(label).observe(seconds(waited));
    }

    /**
     * A node lock annotation went away after {@code held}. The node is not a label: one histogram per node
     * would multiply the bucket series by the cluster size.
     */
    public void lockReleased(String node, Duration held) {
        lockHold.observe(seconds(held));
    }

    @Override
    public void verdict(String node, String vendor, HealthVerdict verdict) {
        String state = handshakeState(verdict);
        var vendors = handshake.computeIfAbsent(node, n -> new ConcurrentHashMap<>());
        Labels last = vendors.get(vendor);
        if (last == null || !state.equals(last.get("state"))) {
            vendors.put(vendor, Labels.of("node", node, "vendor", vendor, "state", state));
        }
    }

    /** Drops a deleted node's per-node series so they do not report a node that no longer exists. */
    public void forgetNode(String node) {
        handshake.remove(node);
        lockContention.remove(node);
        lockFailures.remove(node);
    }

    /** {@code healthy}, {@code pending} (asked, not yet answered) or {@code unhealthy}. */
    static String handshakeState(HealthVerdict verdict) {
        return !verdict.healthy() ? "unhealthy" : verdict.refresh() ? "healthy" : "pending";
    }

    /**
     * One series per node and vendor, labelled with its current state and always 1: alerts select
     * {@code {state="unhealthy"}}. (It used to be one series per state, 0 on the others: three times the series.)
     */
    private GaugeSnapshot handshakeSnapshot() {
        var points = new ArrayList<GaugeDataPointSnapshot>(handshake.size());
        for (Map<String, Labels> vendors : handshake.values()) {
            for (Labels labels : vendors.values()) {
                points.add(new GaugeDataPointSnapshot(1, labels, null));
            }
        }
        return new GaugeSnapshot(HANDSHAKE_META, points);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
