package io.hami.e2e.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.ClusterInvariants;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.HamiScheduler;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * etcd killed (SIGKILL) in the middle of a burst of 80 pods that the real kube-scheduler places through our extender
 * onto eight nodes, each with the lab's simulated kubelet and our NVIDIA plugin ({@link PluginNodes}), once 56 are
 * bound, and started again on the same ports and data folder after {@link #DOWN}; kube-apiserver, kube-scheduler, our
 * scheduler, the kubelets and the plugins stay up and reconnect by themselves. Node-lock writes, decisions, bindings,
 * Allocates and status writes in flight when etcd dies fail or wait until it is back. Asserted from the API server
 * afterwards: every pod ends Running (one Allocate answer, naming exactly the GPU and memory of its decision,
 * {@code bind-phase=success}) or refused by its kubelet (no answer); no device over its memory, cores or tasks
 * counting every pod that holds devices; no node lock stuck (one left by a bind that etcd's death cut off may wait
 * for the bind window, 60 s, which is measured); kube-apiserver ready again, so that the classes after this one find
 * the control plane as it was. Printed: pods bound before the kill and the bind rate until then, pods bound, Running,
 * refused, overcommits, stuck locks, seconds from etcd's start to the next bind and to the last.
 */
@EnableKubeControlPlane
@PatientTimeout(value = 5, unit = TimeUnit.MINUTES)
class EtcdRestartTest {
    static final String NS = "e2e-etcd-restart";
    static final String POOL = "etcd-restart";
    /** Eight nodes of two GPUs: after the outage every node takes one pod per wave (see {@link #KILL_AT}). */
    static final int NODES = 8;

    static final int GPUS = 2;
    static final int GPU_MEM = 8000;
    static final int POD_MEM = 1000;
    /** 8 pods of 1000 MiB fit a card: 128 slots for 80 pods. */
    static final int PODS = 80;
    /**
     * etcd dies once this many are bound. Pods whose binds fail while it is away reach kube-scheduler's longest
     * back-off (10 s) together and come back in waves, each bind refused at once by a node lock another bind of the
     * wave holds; the later the kill, the fewer waves the test waits for.
     */
    static final int KILL_AT = 56;
    /** How long etcd stays dead. */
    static final Duration DOWN = Duration.ofSeconds(5);
    /** A lock whose holder's bind was cut off is recovered after the bind window (design D5); some slack on top. */
    static final Duration LOCK_RECOVERY = Duration.ofSeconds(90);

    static final Duration LOCK_TIMEOUT = Duration.ofMinutes(5);
    static final List<String> NODE_NAMES =
            IntStream.range(0, NODES).mapToObj(i -> "etcd-" + i).toList();

    static KubeControlPlane plane;
    static KubernetesClient admin;

    static Path dir;

    static PluginNodes nodes;
    static HamiScheduler scheduler;

    @BeforeAll
    static void cluster() throws Exception {
        plane.ensureNamespace(NS);
        dir = PluginNodes.workDir(POOL);
        nodes = PluginNodes.start(plane, admin, POOL, NODE_NAMES, Set.of(), GPUS, GPU_MEM, dir.resolve("nodes"));
        scheduler = HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("scheduler"));
        ClusterOps.awaitIndexed(scheduler, NODE_NAMES);
        scheduler.startKubeScheduler(plane, null);
    }

    @AfterAll
    static void stop() {
        if (!plane.etcdRunning()) {
            plane.startEtcd(); // the control plane is shared with the classes after this one
        }
        if (scheduler != null) {
            scheduler.close();
        }
        if (nodes != null) {
            nodes.close();
        }
        ClusterOps.deletePods(admin, NS);
    }

    @Test
    void etcdKilledMidBurstLeavesEveryPodConsistentWithoutOvercommitOrStuckLocks() throws Exception {
        var burst = new Burst(admin, NS, POOL, POD_MEM);
        long burstStart = System.nanoTime();
        burst.create("burst", PODS);
        await("most of the pods bound")
                .atMost(Patience.seconds(120))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> burst.pods().stream().filter(Burst::bound).count() >= KILL_AT);

        int boundAtKill = (int) burst.pods().stream().filter(Burst::bound).count();
        double bindingBefore = (System.nanoTime() - burstStart) / 1e9;
        plane.killEtcd();
        Instant etcdStarted;
        Duration readyAfter;
        try {
            await("kube-apiserver notices that etcd is gone")
                    .atMost(Patience.seconds(30))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> !plane.ready());
            await("kube-apiserver unready while etcd is down")
                    .during(DOWN)
                    .atMost(DOWN.plus(Patience.seconds(30)))
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> !plane.ready());
        } finally {
            etcdStarted = Instant.now();
            readyAfter = plane.startEtcd();
        }

        await("every pod running or refused by its kubelet")
                .atMost(Patience.seconds(180))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> burst.pods().stream().allMatch(Burst::settled));
        long burstSeconds = (System.nanoTime() - burstStart) / 1_000_000_000;

        List<Pod> pods = burst.pods();
        long bound = pods.stream().filter(Burst::bound).count();
        long running = pods.stream().filter(Burst::running).count();
        long refused = pods.stream().filter(Burst::refused).count();
        Instant startSecond = etcdStarted.truncatedTo(ChronoUnit.SECONDS);
        List<Instant> bindsAfter = pods.stream()
                .map(Burst::boundAt)
                .flatMap(Optional::stream)
                .filter(t -> !t.isBefore(startSecond))
                .sorted()
                .toList();
        Optional<Instant> nextBind = bindsAfter.stream().findFirst();
        long allBoundAfter = bindsAfter.isEmpty()
                ? 0
                : Duration.between(startSecond, bindsAfter.getLast()).toSeconds();
        var overcommits = burst.overcommits(NODE_NAMES);
        var inconsistent = burst.inconsistencies(NODE_NAMES, nodes.allocations());
        long t0 = System.nanoTime();
        int stuckAtSettle = ClusterInvariants.stuckLocks(admin, NODE_NAMES, LOCK_TIMEOUT);
        double lockSeconds = 0;
        if (stuckAtSettle > 0) {
            await("no node lock stuck")
                    .atMost(LOCK_RECOVERY)
                    .pollInterval(Duration.ofMillis(500))
                    .until(() -> ClusterInvariants.stuckLocks(admin, NODE_NAMES, LOCK_TIMEOUT) == 0);
            lockSeconds = (System.nanoTime() - t0) / 1e9;
        }
        System.out.printf(
                "etcd restart: %d pods, %d bound before etcd was killed (%.1f binds/s), %d bound, %d running, %d refused"
                        + " by the kubelet; etcd down %d s, kube-apiserver ready %.1f s after etcd's start; overcommits"
                        + " %d; locks stuck %d when the pods settled, 0 after %.1f s; from etcd's start %s to the next"
                        + " bind and %d s to the last (%d binds, whole seconds); burst %d s%n",
                PODS,
                boundAtKill,
                boundAtKill / bindingBefore,
                bound,
                running,
                refused,
                DOWN.toSeconds(),
                readyAfter.toMillis() / 1000.0,
                overcommits.size(),
                stuckAtSettle,
                lockSeconds,
                nextBind.map(t -> Duration.between(startSecond, t).toSeconds() + " s")
                        .orElse("no bind"),
                allBoundAfter,
                bindsAfter.size(),
                burstSeconds);

        assertThat(plane.ready()).as("kube-apiserver ready").isTrue();
        assertThat(inconsistent).as("pods whose state does not add up").isEmpty();
        assertThat(overcommits).as("devices over capacity").isEmpty();
        assertThat(running + refused).isEqualTo(PODS);
        assertThat(nextBind).as("a bind after etcd came back").isPresent();
    }
}
