package io.hami.lab.cluster;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.scenario.SchedulerSpec;
import io.hami.lab.workload.LabKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerApp.Settings;
import io.hami.scheduler.bind.BindObserver;
import io.hami.scheduler.cluster.NodeSelector;
import io.hami.scheduler.extender.FilterObserver;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.leader.LeaderMode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The real scheduler, as one process or several replicas electing a leader on a Lease. Each replica has a client of
 * its own, as a separate process would.
 */
public final class SchedulerReplicas implements AutoCloseable {
    static final String LEASE_NAMESPACE = "kube-system";
    static final String LEASE_NAME = "hami-scheduler";

    private final Supplier<KubernetesClient> clients;
    private final SchedulerSpec spec;
    private final Path certFile;
    private final Path keyFile;
    private final FilterObserver filterObserver;
    private final BindObserver bindObserver;
    private final List<Replica> replicas = new ArrayList<>();
    private int started;

    private record Replica(String identity, KubernetesClient client, SchedulerApp app) {}

    public SchedulerReplicas(Supplier<KubernetesClient> clients, SchedulerSpec spec) {
        this(clients, spec, null, null, FilterObserver.NONE, BindObserver.NONE);
    }

    /**
     * @param certFile       serving certificate (PEM) of every replica, or null for plain HTTP
     * @param keyFile        its key, or null
     * @param filterObserver told of every filter of every replica, besides its metrics and events
     * @param bindObserver   told of every bind of every replica
     */
    public SchedulerReplicas(
            Supplier<KubernetesClient> clients,
            SchedulerSpec spec,
            Path certFile,
            Path keyFile,
            FilterObserver filterObserver,
            BindObserver bindObserver) {
        this.clients = clients;
        this.spec = spec;
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.filterObserver = filterObserver;
        this.bindObserver = bindObserver;
    }

    public synchronized void start() throws IOException, GeneralSecurityException {
        for (int i = 0; i < spec.replicas(); i++) {
            startOne();
        }
    }

    private void startOne() throws IOException, GeneralSecurityException {
        String identity = "hami-scheduler-" + started++;
        boolean elect = spec.replicas() > 1;
        var settings = new SchedulerApp.Settings(
                new Settings.Http(new InetSocketAddress("127.0.0.1", 0), certFile, keyFile),
                new Settings.Scheduling(
                        LabKeys.SCHEDULER_NAME,
                        new SchedulingPolicy(spec.nodePolicy(), spec.gpuPolicy()),
                        spec.lockTimeout(),
                        DeviceConfig.DEFAULTS,
                        NodeSelector.ALL,
                        spec.gangLockWait()),
                new Settings.Replica(
                        elect ? new LeaderMode.Elect(LEASE_NAMESPACE, LEASE_NAME, identity) : new LeaderMode.Always(),
                        spec.handshakePeriod(),
                        spec.requeueOnRelease()),
                new Settings.Metrics(null, "lab"));
        KubernetesClient client = clients.get();
        try {
            replicas.add(new Replica(
                    identity,
                    client,
                    SchedulerApp.start(
                            client,
                            settings,
                            new PrometheusRegistry(),
                            Clock.systemUTC(),
                            filterObserver,
                            bindObserver)));
        } catch (IOException | GeneralSecurityException | RuntimeException e) {
            client.close();
            throw e;
        }
    }

    /** The base URLs of the running replicas, for the extender and webhook clients. */
    public synchronized List<URI> endpoints() {
        String scheme = certFile == null ? "http" : "https";
        return replicas.stream()
                .map(r ->
                        URI.create(scheme + "://127.0.0.1:" + r.app().address().getPort()))
                .toList();
    }

    /** The leader's usage index knows {@code node}. */
    public synchronized boolean knows(String node) {
        return replicas.stream()
                .filter(r -> r.app().isLeader())
                .anyMatch(r -> r.app().index().nodeNames().contains(node));
    }

    /**
     * Stops the leader, which gives up its Lease, and starts a new replica in its place, which joins as a follower.
     *
     * @return the identity of the replica that was stopped
     */
    public synchronized String failover() throws IOException, GeneralSecurityException {
        Replica leader = replicas.stream()
                .filter(r -> r.app().isLeader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no scheduler replica leads"));
        replicas.remove(leader);
        leader.app().close();
        leader.client().close();
        startOne();
        return leader.identity();
    }

    @Override
    public synchronized void close() {
        for (Replica r : replicas) {
            r.app().close();
            r.client().close();
        }
        replicas.clear();
    }
}
