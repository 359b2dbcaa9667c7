package io.hami.monitor;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.http.MetricsPort;
import io.hami.kube.http.RequestLimits;
import io.hami.monitor.cleanup.FolderCleanup;
import io.hami.monitor.cleanup.FolderRemoval;
import io.hami.monitor.metrics.HostGpus;
import io.hami.monitor.metrics.MonitorMetrics;
import io.hami.monitor.pods.NodePods;
import io.hami.monitor.pods.PodName;
import io.hami.monitor.priority.ControlWrite;
import io.hami.monitor.priority.PriorityFeedback;
import io.hami.monitor.scan.ContainerFolder;
import io.hami.monitor.scan.RegionScanner;
import io.hami.monitor.scan.Scan;
import io.hami.monitor.scan.SkippedFiles;
import io.hami.nativebind.hamicore.SharedRegionFiles;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's monitor: every scan interval it reads the containers' regions, writes the priority feedback, removes
 * the folders of gone pods and publishes what it read to {@code /metrics}. Nothing a scan meets (a bad file, a
 * vanished folder, an API server away) stops the next scan.
 */
public final class MonitorService implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MonitorService.class);

    private final MonitorSettings settings;
    private final RegionScanner scanner;
    private final NodePods pods;
    private final HostGpus host;
    private final MonitorMetrics metrics;
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final SkippedFiles skippedFiles = new SkippedFiles();
    private final Clock clock;
    private final ScheduledExecutorService loop;
    private final MetricsPort server;
    private final AtomicBoolean closed = new AtomicBoolean();
    private ScheduledFuture<?> scans;
    private volatile MonitorMetrics.View view = MonitorMetrics.View.EMPTY;

    private MonitorService(
            MonitorSettings settings, KubernetesClient client, HostGpus host, Clock clock, RequestLimits limits)
            throws IOException {
        this.settings = settings;
        this.scanner = new RegionScanner(settings.hookPath());
        this.host = host;
        this.clock = clock;
        this.metrics = new MonitorMetrics(
                registry, settings.version(), settings.node(), settings.legacyMetrics(), () -> view, host, clock);
        this.pods = NodePods.watch(client, settings.node());
        // kube's port, not the client library's server: it reads each request within a deadline (issue 26)
        this.server = MetricsPort.start(settings.metricsAddress(), registry, limits);
        this.loop = Executors.newSingleThreadScheduledExecutor(r -> {
            var t = new Thread(r, "monitor-scan");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts the informer, the metrics server and the scan loop. */
    public static MonitorService start(MonitorSettings settings, KubernetesClient client) throws IOException {
        return start(
                settings, client, HostGpus.open(settings.nvmlLibrary()), Clock.systemUTC(), RequestLimits.DEFAULTS);
    }

    static MonitorService start(
            MonitorSettings settings, KubernetesClient client, HostGpus host, Clock clock, RequestLimits limits)
            throws IOException {
        var service = new MonitorService(settings, client, host, clock, limits);
        long every = settings.scanInterval().toMillis();
        service.scans = service.loop.scheduleWithFixedDelay(service::scanSafely, 0, every, TimeUnit.MILLISECONDS);
        LOG.info(
                "hami monitor on node {}: scanning {} every {} ms, metrics on port {}",
                settings.node(),
                service.scanner.containersDir(),
                every,
                service.metricsPort());
        return service;
    }

    /** The port {@code /metrics} is served on (the one chosen when 0 was asked for). */
    public int metricsPort() {
        return server.address().getPort();
    }

    /** Runs a scan now, on the scan thread, and waits for it: for an in-process caller that needs fresh figures. */
    public void scanNow() throws InterruptedException {
        try {
            loop.submit(this::scanSafely).get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("scan failed", e.getCause());
        }
    }

    /** What {@code /metrics} serves now, without HTTP: for an in-process caller (the lab). */
    public io.prometheus.metrics.model.snapshots.MetricSnapshots scrape() {
        return registry.scrape();
    }

    private void scanSafely() {
        try {
            scanOnce();
        } catch (RuntimeException e) {
            LOG.warn(
                    "scan of {} failed, next in {}: {}",
                    scanner.containersDir(),
                    settings.scanInterval(),
                    e.toString());
        }
    }

    void scanOnce() {
        Scan scan = scanner.scan();
        for (SkippedFiles.NewSkip skip : skippedFiles.update(scan.skipped())) {
            LOG.warn("region skipped until it changes: {}", skip.reason());
            metrics.skipped(skip.kind());
        }
        for (ControlWrite w : PriorityFeedback.decide(scan.regions())) {
            try {
                SharedRegionFiles.writeControl(w.file(), w.recentKernel(), w.utilizationSwitch());
            } catch (IOException e) {
                LOG.debug("feedback not written to {} (its container may be gone): {}", w.file(), e.getMessage());
            }
        }
        boolean complete = pods.synced(); // asked first: a store read after the sync is complete
        Map<String, PodName> live = pods.byUid();
        if (complete) {
            removeGone(scan, live);
        }
        view = new MonitorMetrics.View(scan.regions(), live);
    }

    private void removeGone(Scan scan, Map<String, PodName> live) {
        for (ContainerFolder f :
                FolderCleanup.toRemove(scan.folders(), live.keySet(), clock.instant(), settings.resyncInterval())) {
            try {
                FolderRemoval.remove(f.dir());
                LOG.info("removed {}: pod {} is no longer on this node", f.dir(), f.podUid());
            } catch (IOException e) {
                LOG.warn("cannot remove {} of gone pod {}: {}", f.dir(), f.podUid(), e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        if (closed.getAndSet(true)) {
            return; // the shutdown hook and the caller both close
        }
        scans.cancel(true);
        loop.shutdownNow();
        scanner.close(); // waits for a scan in flight, then unmaps the regions
        server.close();
        pods.close();
        host.close();
    }
}
