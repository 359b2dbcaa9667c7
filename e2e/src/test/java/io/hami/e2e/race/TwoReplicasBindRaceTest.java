package io.hami.e2e.race;

import static io.hami.e2e.support.Cluster.container;
import static io.hami.e2e.support.Cluster.gpu;
import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.Cluster;
import io.hami.e2e.support.ClusterInvariants;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.ExtenderClient;
import io.hami.e2e.support.HamiScheduler;
import io.hami.e2e.support.NodeLifecycle;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.kubelet.ContainerRuntime;
import io.hami.lab.kubelet.PodStatusWriter;
import io.hami.lab.kubelet.SyntheticKubelet;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.FilterResult;
import io.hami.scheduler.extender.HostPriority;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two scheduler replicas (both leading, as two instances of the extender would be during a leader hand-over or
 * a split brain) binding the same pods onto few devices at once, every node lock a compare-and-swap on real
 * etcd. Eight workers call filter, prioritize and bind over HTTPS like kube-scheduler, each call to either replica;
 * the lab's synthetic kubelet finishes every allocation the way the device plugins would, so the lock moves on.
 * Then, from the API server's state alone: no device overcommitted, every decision on its pod's node, every lock
 * released or recoverable, the cluster packed exactly, and binds refused for contention (the race happened).
 */
@EnableKubeControlPlane
class TwoReplicasBindRaceTest {
    static final String NS = "e2e-race";
    static final int NODES = 2;
    static final int GPUS = 2;
    static final int GPU_MEM = 8000;
    static final int POD_MEM = 2000;
    /** Four pods fit a card by memory (the split count, 10, is not the limit). */
    static final int SLOTS = NODES * GPUS * (GPU_MEM / POD_MEM);

    static final int PODS = 28;
    static final int WORKERS = 8;
    static final Duration LOCK_TIMEOUT = Duration.ofMinutes(5);
    /** Nobody serves it: kube-scheduler (if another class left one) must not take these pods. */
    static final String SCHEDULER_NAME = "e2e-race-driver";

    KubeControlPlane plane;
    KubernetesClient admin;
    final List<AutoCloseable> closeables = new ArrayList<>();
    final List<String> nodes = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            try {
                closeables.get(i).close();
            } catch (Exception e) {
                // keep closing the rest
            }
        }
        ClusterOps.deletePods(admin, NS);
        ClusterOps.deleteNodes(admin, nodes);
    }

    @Test
    @PatientTimeout(value = 2, unit = TimeUnit.MINUTES)
    void twoReplicasRacingBindsNeverOvercommitAndLeaveNoLockBehind(@TempDir Path dir) throws Exception {
        long t0 = System.nanoTime();
        plane.ensureNamespace(NS);
        for (int n = 0; n < NODES; n++) {
            String name = "race-" + n;
            var gpus = new ArrayList<DeviceInfo>();
            for (int g = 0; g < GPUS; g++) {
                gpus.add(gpu("GPU-race-" + n + "-" + g, g, GPU_MEM, "NVIDIA-A10"));
            }
            NodeLifecycle.createReady(admin, Cluster.nvidia(name, gpus.toArray(DeviceInfo[]::new)));
            nodes.add(name);
        }
        for (int i = 0; i < PODS; i++) {
            // Spread over nodes: the nodes fill in parallel, and the eight workers still outnumber them.
            Pod p = new PodBuilder(Cluster.pod(
                                    NS,
                                    "race-" + i,
                                    container(
                                            "cuda",
                                            "nvidia.com/gpu",
                                            "1",
                                            "nvidia.com/gpumem",
                                            String.valueOf(POD_MEM)))
                            .build())
                    .editMetadata()
                    .addToAnnotations(ProtocolKeys.NODE_SCHEDULER_POLICY, "spread")
                    .endMetadata()
                    .editSpec()
                    .withSchedulerName(SCHEDULER_NAME)
                    .endSpec()
                    .build();
            admin.pods().inNamespace(NS).resource(p).create();
        }

        HamiScheduler a =
                HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("replica-a"));
        closeables.add(a);
        HamiScheduler b =
                HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("replica-b"));
        closeables.add(b);
        ClusterOps.awaitIndexed(a, nodes);
        ClusterOps.awaitIndexed(b, nodes);
        var replicas = List.of(
                ExtenderClient.of(a, plane.ca().certificatePem()),
                ExtenderClient.of(b, plane.ca().certificatePem()));

        // The device plugins of these nodes, at the annotation level: entries consumed, success, lock released.
        KubernetesClient kubeletClient = plane.newClient();
        closeables.add(kubeletClient);
        closeables.add(new SyntheticKubelet(
                kubeletClient,
                Set.copyOf(nodes),
                DeviceBackends.load(DeviceConfig.DEFAULTS),
                new NodeLockClient(kubeletClient, LOCK_TIMEOUT, Clock.systemUTC()),
                new ContainerRuntime(new PodStatusWriter(kubeletClient))));

        var queue = new ConcurrentLinkedQueue<String>();
        for (int i = 0; i < PODS; i++) {
            queue.add("race-" + i);
        }
        var stats = new Stats();
        long raceStart = System.nanoTime();
        ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
        var working = new ArrayList<Future<?>>();
        for (int w = 0; w < WORKERS; w++) {
            var rnd = new Random(w);
            working.add(workers.submit(() -> {
                String name;
                while ((name = queue.poll()) != null) {
                    schedule(name, replicas, rnd, stats, 3);
                }
                return null;
            }));
        }
        workers.shutdown();
        Duration workersWithin = Patience.seconds(60);
        assertThat(workers.awaitTermination(workersWithin.toMillis(), TimeUnit.MILLISECONDS))
                .as("workers finished within %s", workersWithin)
                .isTrue();
        for (Future<?> worker : working) {
            worker.get(); // a worker that threw fails the test here
        }
        long raceMillis = (System.nanoTime() - raceStart) / 1_000_000;
        awaitAllocated();

        // Anything a transient answer turned away while a slot was still free gets one calm pass.
        int late = 0;
        for (Pod p : unbound()) {
            if (schedule(p.getMetadata().getName(), replicas.subList(0, 1), new Random(99), stats, 1)) {
                late++;
                awaitAllocated();
            }
        }

        var pods = admin.pods().inNamespace(NS).list().getItems();
        long bound =
                pods.stream().filter(p -> p.getSpec().getNodeName() != null).count();
        System.out.printf(
                "race: %d pods, %d bound (%d in the final pass), %d binds refused %s, %d of them while a pod the other"
                        + " replica bound held the lock; binds by replica %s; %d bind calls averaging %d ms; race %d ms, test %d ms%n",
                PODS,
                bound,
                late,
                stats.refused.values().stream().mapToInt(AtomicInteger::get).sum(),
                stats.refused,
                stats.crossReplica(),
                stats.boundBy,
                stats.bindCalls.get(),
                stats.bindNanos.get() / 1_000_000 / Math.max(1, stats.bindCalls.get()),
                raceMillis,
                (System.nanoTime() - t0) / 1_000_000);

        ClusterInvariants.assertNoOvercommit(admin, NS, nodes);
        assertThat(bound)
                .as("every slot taken, none twice: the cluster is packed exactly")
                .isEqualTo(SLOTS);
        for (Pod p : pods) {
            if (p.getSpec().getNodeName() == null) {
                assertThat(annotations(p).get(ProtocolKeys.BIND_PHASE))
                        .as(
                                "unbound %s keeps no decision in flight",
                                p.getMetadata().getName())
                        .isNotEqualTo(ProtocolKeys.PHASE_ALLOCATING);
            }
        }
        assertThat(ClusterInvariants.stuckLocks(admin, nodes, LOCK_TIMEOUT))
                .as("node locks a next bind would wait for (design D5: released or recoverable)")
                .isZero();
        assertThat(stats.refused
                                .getOrDefault(Stats.CONTENTION, new AtomicInteger())
                                .get()
                        + stats.refused
                                .getOrDefault(Stats.STALE, new AtomicInteger())
                                .get()
                        + stats.refused
                                .getOrDefault(Stats.CONFLICT, new AtomicInteger())
                                .get())
                .as("binds refused for lock contention or a conflicting decision: the replicas did race")
                .isPositive();
        assertThat(stats.boundBy).as("both replicas bound pods").containsKeys(0, 1);
        assertThat(stats.crossReplica())
                .as("binds refused on one replica because a pod of the other held the node lock")
                .isPositive();
    }

    /** What the workers saw. */
    static final class Stats {
        static final String CONTENTION = "lock contention";
        static final String STALE = "no longer fits";
        static final String CONFLICT = "conflict";
        static final String OTHER = "other";
        final Map<String, AtomicInteger> refused = new ConcurrentHashMap<>();
        final Map<Integer, AtomicInteger> boundBy = new ConcurrentHashMap<>();
        /** Which replica bound each pod. */
        final Map<String, Integer> binder = new ConcurrentHashMap<>();
        /** For each bind refused for contention: the refusing replica and the pod holding the lock. */
        final List<Map.Entry<Integer, String>> contended = java.util.Collections.synchronizedList(new ArrayList<>());

        final AtomicInteger bindCalls = new AtomicInteger();
        final java.util.concurrent.atomic.AtomicLong bindNanos = new java.util.concurrent.atomic.AtomicLong();

        private static final java.util.regex.Pattern HOLDER =
                java.util.regex.Pattern.compile("is locked by [^/]+/(\\S+) since");

        /** Binds refused on one replica while the lock was held by a pod that the other replica bound. */
        long crossReplica() {
            synchronized (contended) {
                return contended.stream()
                        .filter(e -> binder.containsKey(e.getValue())
                                && !binder.get(e.getValue()).equals(e.getKey()))
                        .count();
            }
        }

        void refused(int replica, String error) {
            var holder = HOLDER.matcher(error);
            if (holder.find()) {
                contended.add(Map.entry(replica, holder.group(1)));
            }
            String kind = error.contains("node lock contention")
                    ? CONTENTION
                    : error.contains("no longer fits")
                            ? STALE
                            : error.contains("409")
                                            || error.toLowerCase(Locale.ROOT).contains("conflict")
                                            || error.contains("lost the lock")
                                    ? CONFLICT
                                    : OTHER;
            refused.computeIfAbsent(kind, k -> new AtomicInteger()).incrementAndGet();
            if (kind.equals(OTHER)) {
                System.out.println("race: bind refused: " + error);
            }
        }
    }

    /**
     * One pod through filter, prioritize and bind as kube-scheduler would, each call to a random replica, retried on
     * a refused bind; true once bound. Gives up when filter finds no node {@code emptyLimit} times in a row.
     */
    private boolean schedule(String name, List<ExtenderClient> replicas, Random rnd, Stats stats, int emptyLimit)
            throws InterruptedException {
        int empty = 0;
        long deadline = System.nanoTime() + Patience.seconds(40).toNanos();
        while (System.nanoTime() < deadline) {
            Pod pod = admin.pods().inNamespace(NS).withName(name).get();
            if (pod.getSpec().getNodeName() != null) {
                return true;
            }
            FilterResult filtered = replicas.get(rnd.nextInt(replicas.size())).filter(pod, nodes);
            assertThat(filtered.error()).as("filter error").isEmpty();
            if (filtered.nodeNames() == null || filtered.nodeNames().isEmpty()) {
                if (++empty >= emptyLimit) {
                    return false;
                }
                // Pace, not a wait: kube-scheduler's retry of an unschedulable pod, shortened (the calm pass waits).
                Thread.sleep(150);
                continue;
            }
            empty = 0;
            List<HostPriority> ranked =
                    replicas.get(rnd.nextInt(replicas.size())).prioritize(pod, filtered.nodeNames());
            String best = ranked.stream()
                    .max(Comparator.comparingLong(HostPriority::score))
                    .orElseThrow()
                    .host();
            int r = rnd.nextInt(replicas.size());
            long bindStart = System.nanoTime();
            BindingResult result = replicas.get(r).bind(pod, best);
            stats.bindCalls.incrementAndGet();
            stats.bindNanos.addAndGet(System.nanoTime() - bindStart);
            if (result.ok()) {
                stats.boundBy.computeIfAbsent(r, k -> new AtomicInteger()).incrementAndGet();
                stats.binder.put(name, r);
                return true;
            }
            stats.refused(r, result.error());
            // Pace, not a wait: jitter shorter than kube-scheduler's 1 s backoff keeps the race dense, not flooding.
            Thread.sleep(50 + rnd.nextInt(100));
        }
        return false;
    }

    private List<Pod> unbound() {
        return admin.pods().inNamespace(NS).list().getItems().stream()
                .filter(p -> p.getSpec().getNodeName() == null)
                .toList();
    }

    /** Until the synthetic kubelet has finished every bound pod's allocation. */
    private void awaitAllocated() {
        await("every bound pod allocated")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> admin.pods().inNamespace(NS).list().getItems().stream()
                        .filter(p -> p.getSpec().getNodeName() != null)
                        .noneMatch(p -> ProtocolKeys.PHASE_ALLOCATING.equals(
                                annotations(p).get(ProtocolKeys.BIND_PHASE))));
    }
}
