package io.hami.e2e.faults;

import static io.hami.e2e.support.ClusterOps.annotations;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.controlplane.KubeControlPlane;
import io.hami.controlplane.junit.EnableKubeControlPlane;
import io.hami.e2e.support.ClusterInvariants;
import io.hami.e2e.support.ClusterOps;
import io.hami.e2e.support.HamiScheduler;
import io.hami.kube.lock.HolderPod;
import io.hami.kube.lock.HolderState;
import io.hami.kube.lock.LockRules;
import io.hami.kube.lock.LockTimeouts;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.AnnotationFormatException;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.NodeLockCodec;
import io.hami.protocol.codec.PodDevicesCodec;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.leader.LeaderMode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A device plugin killed (SIGKILL) in the middle of an Allocate, during a burst of 100 pods that the real
 * kube-scheduler places through our extender onto four nodes, each with the lab's simulated kubelet and our NVIDIA
 * plugin ({@link PluginNodes}); the plugin of {@link #VICTIM} runs as a process of its own, as the DaemonSet runs it.
 * To hit the middle of an Allocate and not the few milliseconds around it, that plugin's API calls are slowed
 * ({@link SlowLink}, 200 ms each way) while the test waits for the moment: the first pod of that node whose entry an
 * Allocate has consumed ({@code vgpu-devices-to-allocate} emptied) while it is still {@code allocating}. The plugin is
 * killed there, before it can set {@code success}, release the node lock and answer the kubelet, and started again at
 * once; a probe pod that only that node may take is created, so that an Allocate comes there whatever the burst does.
 *
 * <p>The kubelet gets an error for that Allocate and refuses the pod ({@code UnexpectedAdmissionError}), as its
 * device manager does: it never calls a failed Allocate again, since the plugin may have served it and a second call
 * could be taken for the next pod's. A pod whose Allocate had not been sent yet waits for the plugin to register
 * again and is served by the restarted one. Asserted from the API server: the cut-off pod refused and not
 * {@code success}; right after the refusal the node's lock is free or one the next bind may take at once; at the
 * end every pod Running (one Allocate answer, naming exactly the GPU and memory of its decision,
 * {@code bind-phase=success}) or refused (no answer), all bound; no device over its memory, cores or tasks counting
 * every pod that holds devices; the scheduler's usage index holding the killed node's devices for exactly those pods
 * (the refused pod's are free again); no node lock stuck. Printed: pods bound, Running, refused, overcommits, stuck
 * locks, seconds from the restart to the plugin registered and to the next Allocate served on that node.
 */
@EnableKubeControlPlane
@PatientTimeout(value = 4, unit = TimeUnit.MINUTES)
class PluginRestartTest {
    static final String NS = "e2e-plugin-restart";
    static final String POOL = "plugin-restart";
    static final int NODES = 4;
    static final int GPUS = 4;
    static final int GPU_MEM = 8000;
    static final int POD_MEM = 1000;
    /** 8 pods of 1000 MiB fit a card: 128 slots for these and the probe. */
    static final int PODS = 100;
    /** Each API call of an Allocate takes two of these while the test waits for its moment. */
    static final Duration LATENCY = Duration.ofMillis(200);

    static final Duration LOCK_TIMEOUT = Duration.ofMinutes(5);
    static final List<String> NODE_NAMES =
            IntStream.range(0, NODES).mapToObj(i -> "restart-" + i).toList();
    /** The node whose plugin runs as a process, to be killed. */
    static final String VICTIM = NODE_NAMES.getFirst();

    static KubeControlPlane plane;
    static KubernetesClient admin;

    static Path dir;

    static PluginNodes nodes;
    static HamiScheduler scheduler;

    @BeforeAll
    static void cluster() throws Exception {
        plane.ensureNamespace(NS);
        dir = PluginNodes.workDir(POOL);
        nodes = PluginNodes.start(plane, admin, POOL, NODE_NAMES, Set.of(VICTIM), GPUS, GPU_MEM, dir.resolve("nodes"));
        scheduler = HamiScheduler.start(plane, plane.adminConfig(), new LeaderMode.Always(), dir.resolve("scheduler"));
        ClusterOps.awaitIndexed(scheduler, NODE_NAMES);
        scheduler.startKubeScheduler(plane, null);
    }

    @AfterAll
    static void stop() {
        if (scheduler != null) {
            scheduler.close();
        }
        if (nodes != null) {
            nodes.close();
        }
        ClusterOps.deletePods(admin, NS);
    }

    /** The Allocate cut off: where, for which pod, when. */
    private record Cut(String node, String pod, Instant at) {}

    @Test
    void aPluginKilledInTheMiddleOfAnAllocateLeavesNoOvercommitAndNoStuckLock() throws Exception {
        var burst = new Burst(admin, NS, POOL, POD_MEM);
        long burstStart = System.nanoTime();
        burst.create("burst", PODS);
        Instant start = Instant.now();
        await("a quarter of the pods running")
                .atMost(Patience.seconds(120))
                .pollInterval(Duration.ofMillis(250))
                .until(() -> burst.pods().stream().filter(Burst::running).count() >= PODS / 4);

        var cut = new CompletableFuture<Cut>();
        var armed = new AtomicBoolean(true);
        Watch watch = admin.pods().inNamespace(NS).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                if (action == Action.MODIFIED
                        && VICTIM.equals(pod.getSpec().getNodeName())
                        && midAllocate(pod)
                        && armed.compareAndSet(true, false)) {
                    nodes.node(VICTIM).plugin().kill();
                    cut.complete(new Cut(VICTIM, pod.getMetadata().getName(), Instant.now()));
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                cut.completeExceptionally(new AssertionError("the pod watch closed", cause));
            }
        });
        Cut c;
        try {
            nodes.latency(LATENCY);
            c = cut.get(Patience.seconds(60).toMillis(), TimeUnit.MILLISECONDS);
        } finally {
            armed.set(false);
            nodes.latency(Duration.ZERO);
            watch.close();
        }
        Set<String> runningBefore = runningOn(burst, c.node());
        int boundAtKill = (int) burst.pods().stream().filter(Burst::bound).count();

        Instant restarted = Instant.now();
        nodes.node(c.node()).plugin().restart();
        // A pod only that node may take, so that an Allocate comes there whatever the burst does.
        burst.createOn("probe", c.node());
        Pod cutPod = await("the kubelet settles pod " + c.pod())
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> admin.pods().inNamespace(NS).withName(c.pod()).get(), Burst::settled);
        // Whatever the cut-off pod left on the node lock, the next bind may take it at once (design D5): it is not
        // stuck while the plugin is still away.
        String lockAfterRefusal = lockAfterRefusal(c.pod());

        await("the restarted plugin of " + c.node() + " registered with its kubelet")
                .atMost(Patience.seconds(60))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> nodes.registeredSinceRestart(c.node()));
        Duration registered = Duration.between(restarted, Instant.now());
        await("the restarted plugin on " + c.node() + " serves an Allocate")
                .atMost(Patience.seconds(120))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> !runningOn(burst, c.node()).stream().allMatch(runningBefore::contains));
        Duration recovered = Duration.between(restarted, Instant.now());

        await("every pod running or refused by its kubelet")
                .atMost(Patience.seconds(180))
                .pollInterval(Duration.ofMillis(500))
                .failFast(
                        "the killed plugin's process exited again",
                        () -> !nodes.node(c.node()).plugin().isAlive())
                .until(() -> burst.pods().stream().allMatch(Burst::settled));
        long burstSeconds = (System.nanoTime() - burstStart) / 1_000_000_000;

        var pods = burst.pods();
        long bound = pods.stream().filter(Burst::bound).count();
        long running = pods.stream().filter(Burst::running).count();
        long refused = pods.stream().filter(Burst::refused).count();
        var overcommits = burst.overcommits(NODE_NAMES);
        var inconsistent = burst.inconsistencies(NODE_NAMES, nodes.allocations());
        int stuck = ClusterInvariants.stuckLocks(admin, NODE_NAMES, LOCK_TIMEOUT);
        System.out.printf(
                "plugin restart: %d pods (a probe for the killed node among them), %d bound (%d at the kill), %d"
                        + " running, %d refused by the kubelet; plugin of %s killed mid-Allocate of %s (that pod %s,"
                        + " bind-phase %s) at +%.1f s, the node's lock then %s; overcommits %d; stuck locks %d; %.1f s"
                        + " from the restart to the plugin registered, %.1f s to the next Allocate served there; burst"
                        + " %d s%n",
                PODS + 1,
                bound,
                boundAtKill,
                running,
                refused,
                c.node(),
                c.pod(),
                Burst.phase(cutPod),
                annotations(cutPod).get(ProtocolKeys.BIND_PHASE),
                Duration.between(start, c.at()).toMillis() / 1000.0,
                lockAfterRefusal,
                overcommits.size(),
                stuck,
                registered.toMillis() / 1000.0,
                recovered.toMillis() / 1000.0,
                burstSeconds);

        assertThat(annotations(cutPod).get(ProtocolKeys.BIND_PHASE))
                .as("the plugin died before it finished pod %s", c.pod())
                .isNotEqualTo(ProtocolKeys.PHASE_SUCCESS);
        assertThat(Burst.refused(cutPod))
                .as("the kubelet refused pod %s, whose Allocate got no answer", c.pod())
                .isTrue();
        assertThat(lockAfterRefusal)
                .as("the lock of %s after the kubelet refused %s", VICTIM, c.pod())
                .doesNotStartWith("stuck");
        assertThat(inconsistent).as("pods whose state does not add up").isEmpty();
        assertThat(overcommits).as("devices over capacity").isEmpty();
        assertThat(stuck).as("node locks stuck").isZero();
        assertThat(bound).as("every pod bound").isEqualTo(PODS + 1);
        assertThat(running + refused).isEqualTo(PODS + 1);
        // The cut-off pod's devices are free again in the scheduler's view: it counts on the killed node exactly the
        // memory of the pods that hold devices there.
        await("the scheduler's usage of " + c.node() + " equals what its pods hold")
                .atMost(Patience.seconds(30))
                .pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(indexedMemory(c.node())).isEqualTo(heldMemory(burst, c.node())));
    }

    /** A pod whose Allocate has consumed its entry and not yet finished (success, lock released, answer sent). */
    static boolean midAllocate(Pod pod) {
        Map<String, String> a = annotations(pod);
        String toAllocate = a.get(NvidiaKeys.TO_ALLOCATE);
        if (!Burst.bound(pod)
                || Burst.settled(pod)
                || !ProtocolKeys.PHASE_ALLOCATING.equals(a.get(ProtocolKeys.BIND_PHASE))
                || toAllocate == null) {
            return false;
        }
        try {
            return PodDevicesCodec.decode(toAllocate).isEmpty();
        } catch (AnnotationFormatException e) {
            return false;
        }
    }

    /**
     * The killed node's lock once the kubelet refused {@code cut}: free, still the cut-off pod's but one the next bind
     * takes at once (its holder ended), or already taken by the next bind (its pod decided for this node, being bound
     * or bound and waiting for its Allocate from the restarted plugin; or between its lock and its decision). Anything
     * else is stuck.
     */
    private static String lockAfterRefusal(String cut) throws AnnotationFormatException {
        String value = annotations(admin.nodes().withName(VICTIM).get()).get(ProtocolKeys.NODE_LOCK);
        if (value == null) {
            return "free";
        }
        NodeLock lock = NodeLockCodec.decode(value);
        Pod holder =
                admin.pods().inNamespace(lock.namespace()).withName(lock.name()).get();
        if (cut.equals(lock.name())) {
            HolderState state = LockRules.holderState(VICTIM, lock, HolderPod.of(holder));
            return LockRules.decide(lock, "", "someone-else", state, Instant.now(), LockTimeouts.of(LOCK_TIMEOUT))
                            instanceof LockRules.Decision.Wait
                    ? "stuck: held by " + cut + " (" + state + ")"
                    : "held by " + cut + ", which the next bind takes at once (" + state + ")";
        }
        if (holder != null
                && ProtocolKeys.PHASE_ALLOCATING.equals(annotations(holder).get(ProtocolKeys.BIND_PHASE))
                && (holder.getSpec().getNodeName() == null
                        || VICTIM.equals(holder.getSpec().getNodeName()))) {
            return "taken by the next bind, of " + lock.name()
                    + (holder.getSpec().getNodeName() == null
                            ? " (its binding under way)"
                            : " (bound there, awaiting its Allocate)");
        }
        if (LockRules.holderState(VICTIM, lock, HolderPod.of(holder)) == HolderState.PENDING) {
            // A loaded machine stretches the bind window: the next bind holds the lock and has not yet written its
            // decision; the lock rules bound that window, and the stuck-lock count at the end catches one that dies.
            return "taken by the next bind, of " + lock.name() + " (between its lock and its decision)";
        }
        return "stuck: held by " + value + (holder == null ? " (gone)" : ": " + Burst.describe(holder));
    }

    private static Set<String> runningOn(Burst burst, String node) {
        return burst.pods().stream()
                .filter(p -> node.equals(p.getSpec().getNodeName()) && Burst.running(p))
                .map(p -> p.getMetadata().getName())
                .collect(Collectors.toSet());
    }

    /** Memory per GPU of {@code node} in the scheduler's usage index (GPUs without any left out). */
    private static Map<String, Integer> indexedMemory(String node) {
        return scheduler.app().index().snapshot(node).orElseThrow().view().devicesOf(NvidiaKeys.VENDOR).stream()
                .filter(d -> d.usedmem() > 0)
                .collect(Collectors.toMap(d -> d.device().id(), DeviceUsage::usedmem));
    }

    /** Memory per GPU of {@code node} that its pods hold by their allocated annotation, refused pods left out. */
    private static Map<String, Integer> heldMemory(Burst burst, String node) throws AnnotationFormatException {
        var held = new HashMap<String, Integer>();
        for (Pod p : burst.pods()) {
            String allocated = annotations(p).get(NvidiaKeys.ALLOCATED);
            if (node.equals(p.getSpec().getNodeName()) && !Burst.refused(p) && allocated != null) {
                for (var container : PodDevicesCodec.decode(allocated).containers()) {
                    container.forEach(d -> held.merge(d.uuid(), d.usedmem(), Integer::sum));
                }
            }
        }
        return held;
    }
}
