package io.hami.lab.fault;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.hami.lab.cluster.LabCluster;
import io.hami.lab.node.DeviceIds;
import io.hami.lab.scenario.DurationText;
import io.hami.lab.scenario.Fault;
import io.hami.lab.scenario.Vendor;
import io.hami.lab.workload.LabKeys;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.spi.DeviceBackend;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Injects a scenario's faults at their times, and undoes the temporary ones (a device recovering, API errors
 * stopping) when their time is up. Each action runs on its own thread, so a slow one (a kubelet down for a while)
 * does not hold up the next fault.
 */
public final class FaultInjector implements AutoCloseable {
    /** How long a fault's pod is watched: to be refused, or for its node to take the next pod. */
    private static final Duration WATCH = Duration.ofSeconds(60);

    private static final Duration POLL = Duration.ofMillis(100);

    private final LabCluster cluster;
    private final List<Fault> faults;
    private final long seed;
    private final Consumer<FaultEvent> listener;
    private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(
            1, Thread.ofPlatform().name("lab-faults").daemon().factory());
    private final List<FaultEvent> events = new CopyOnWriteArrayList<>();
    private final List<UntrustedPod> untrusted = new CopyOnWriteArrayList<>();
    private final DeviceBackend nvidia;
    private final AtomicInteger outstanding = new AtomicInteger();
    private long startNanos;

    /**
     * @param seed     seed of the injected API errors
     * @param nvidia   the NVIDIA backend, whose keys and resource a self-granting pod uses
     * @param listener told about every event as it happens
     */
    public FaultInjector(
            LabCluster cluster, List<Fault> faults, long seed, DeviceBackend nvidia, Consumer<FaultEvent> listener) {
        this.cluster = cluster;
        this.nvidia = nvidia;
        this.faults = faults.stream().sorted(Comparator.comparing(Fault::at)).toList();
        this.seed = seed;
        this.listener = listener;
    }

    public void start(long startNanos) {
        this.startNanos = startNanos;
        for (Fault f : faults) {
            schedule(f.at(), () -> inject(f));
        }
    }

    /** True once every fault and every recovery has been done. */
    public boolean done() {
        return outstanding.get() == 0;
    }

    public List<FaultEvent> events() {
        return List.copyOf(events);
    }

    /** The pods faults made that must never receive a device. */
    public List<UntrustedPod> untrusted() {
        return List.copyOf(untrusted);
    }

    private void schedule(Duration at, Action action) {
        outstanding.incrementAndGet();
        long delay = startNanos + at.toNanos() - System.nanoTime();
        var unused = timer.schedule(
                () -> Thread.ofVirtual().name("lab-fault").start(() -> {
                    try {
                        action.run();
                    } catch (Exception e) {
                        record(e.getClass().getSimpleName() + ": " + e.getMessage(), true);
                    } finally {
                        outstanding.decrementAndGet();
                    }
                }),
                Math.max(0, delay),
                TimeUnit.NANOSECONDS);
    }

    @FunctionalInterface
    private interface Action {
        void run() throws Exception;
    }

    private void inject(Fault fault) throws Exception {
        switch (fault) {
            case Fault.PluginRestart r -> {
                record(fault.describe(), false);
                cluster.pluginNode(r.node()).restartPlugin(r.vendor());
                record(
                        r.node() + ": plugin"
                                + (r.vendor() == null ? "s" : " " + r.vendor().yamlName()) + " started again",
                        false);
            }
            case Fault.KubeletRestart r -> {
                record(fault.describe(), false);
                cluster.pluginNode(r.node()).restartKubelet(r.down());
                record(r.node() + ": kubelet started again", false);
            }
            case Fault.DeviceUnhealthy u -> {
                cluster.pluginNode(u.node()).setHealthy(u.vendor(), u.device(), false);
                record(fault.describe(), false);
                if (u.lasting() != null) {
                    schedule(u.at().plus(u.lasting()), () -> {
                        cluster.pluginNode(u.node()).setHealthy(u.vendor(), u.device(), true);
                        record(
                                u.vendor().yamlName() + " device " + u.device() + " on " + u.node() + " healthy again",
                                false);
                    });
                }
            }
            case Fault.ApiWriteErrors e -> {
                int[] statuses =
                        e.statuses().stream().mapToInt(Integer::intValue).toArray();
                cluster.server().faults().failWrites(e.probability(), seed, statuses);
                record(fault.describe(), false);
                schedule(e.at().plus(e.lasting()), () -> {
                    cluster.server().faults().clear();
                    record(
                            "API writes succeed again ("
                                    + cluster.server().faults().injectedCount() + " failures injected so far)",
                            false);
                });
            }
            case Fault.LeaderFailover l -> {
                String stopped = cluster.schedulers().failover();
                record("stopped the leading scheduler " + stopped + "; a new replica joined as a follower", false);
            }
            case Fault.SelfGrant g -> selfGrant(g);
            case Fault.KubeletRejects r -> kubeletRejects(r);
        }
    }

    private void selfGrant(Fault.SelfGrant g) throws InterruptedException {
        String name = "self-grant-" + DurationText.format(g.at()).replaceAll("[^0-9a-z]", "");
        Pod pod;
        try {
            pod = cluster.client()
                    .pods()
                    .resource(SelfGrantPod.of(
                            LabKeys.NAMESPACE,
                            name,
                            g.node(),
                            nvidia,
                            DeviceIds.schedulerId(Vendor.NVIDIA, g.node(), 0),
                            Instant.now()))
                    .create();
        } catch (KubernetesClientException e) {
            // On a real control plane our webhook (and deploy/'s admission policy, where applied) refuses it outright.
            record("the API server refused pod " + name + ", which wrote itself a grant: " + e.getMessage(), false);
            return;
        }
        record("created pod " + name + " on " + g.node() + " with a grant it wrote itself", false);
        untrusted.add(new UntrustedPod(
                "self-grant", LabKeys.NAMESPACE + "/" + name, pod.getMetadata().getUid(), g.node(), null));
        Pod ended = awaitEnd(name);
        if (ended == null) {
            record("pod " + name + " did not end within " + DurationText.format(WATCH), true);
        } else {
            record(
                    "pod " + name + " ended " + ended.getStatus().getPhase() + ": "
                            + ended.getStatus().getMessage(),
                    !"Failed".equals(ended.getStatus().getPhase()));
        }
    }

    private void kubeletRejects(Fault.KubeletRejects r) throws Exception {
        record(r.describe(), false);
        Pod rejected = cluster.pluginNode(r.node()).rejectNextDecidedPod().get(WATCH.toSeconds(), TimeUnit.SECONDS);
        long rejectedAt = System.nanoTime();
        String holder = rejected.getMetadata().getNamespace() + "/"
                + rejected.getMetadata().getName();
        record(r.node() + ": the kubelet rejected pod " + holder + " before Allocate", false);
        Duration takeover = null;
        while (System.nanoTime() - rejectedAt < WATCH.toNanos()) {
            if (!heldBy(r.node(), rejected)) {
                takeover = Duration.ofNanos(System.nanoTime() - rejectedAt);
                break;
            }
            Thread.sleep(POLL);
        }
        untrusted.add(new UntrustedPod(
                "kubelet-rejects", holder, rejected.getMetadata().getUid(), r.node(), takeover));
        record(
                takeover == null
                        ? r.node() + ": the lock of rejected pod " + holder + " was not taken over within "
                                + DurationText.format(WATCH)
                        : r.node() + ": lock of rejected pod " + holder + " gone " + takeover.toMillis()
                                + " ms after the rejection",
                takeover == null);
    }

    /** Whether {@code node}'s lock still names {@code pod}; an unreadable lock counts as still held. */
    private boolean heldBy(String node, Pod pod) {
        var n = cluster.client().nodes().withName(node).get();
        String value = n.getMetadata().getAnnotations() == null
                ? null
                : n.getMetadata().getAnnotations().get(ProtocolKeys.NODE_LOCK);
        if (value == null) {
            return false;
        }
        try {
            NodeLock lock = NodeLockCodec.decode(value);
            return lock.isHeldBy(
                    pod.getMetadata().getNamespace(), pod.getMetadata().getName());
        } catch (AnnotationFormatException e) {
            return true;
        }
    }

    private Pod awaitEnd(String name) throws InterruptedException {
        long deadline = System.nanoTime() + WATCH.toNanos();
        while (System.nanoTime() < deadline) {
            Pod p = cluster.client()
                    .pods()
                    .inNamespace(LabKeys.NAMESPACE)
                    .withName(name)
                    .get();
            String phase =
                    p == null || p.getStatus() == null ? null : p.getStatus().getPhase();
            if ("Failed".equals(phase) || "Succeeded".equals(phase) || "Running".equals(phase)) {
                return p;
            }
            Thread.sleep(POLL);
        }
        return null;
    }

    private void record(String what, boolean failed) {
        var event = new FaultEvent(Duration.ofNanos(System.nanoTime() - startNanos), what, failed);
        events.add(event);
        listener.accept(event);
    }

    /** One line per fault, for the plan shown before the run. */
    public static List<String> plan(List<Fault> faults) {
        var lines = new ArrayList<String>();
        faults.stream()
                .sorted(Comparator.comparing(Fault::at))
                .forEach(f -> lines.add(DurationText.format(f.at()) + " " + f.describe()));
        return lines;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
