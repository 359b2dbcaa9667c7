package io.hami.scheduler.bind;

import static io.hami.scheduler.bind.BindFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.kube.lock.LockOutcome;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.gang.GangWaits;
import io.hami.scheduler.gang.NodeLockQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Gang members (scheduler-plugins' PodGroup label, Volcano's annotation) whose node lock is held wait for it inside the
 * bind, in arrival order, within {@code --gang-lock-wait}; other pods are refused at once as before. Against the
 * embedded API server; the node's "plugins" are a loop that releases the lock of each bound holder.
 */
@PatientTimeout(value = 2, unit = TimeUnit.MINUTES)
class GangBindTest {

    /** What bind told its observer. */
    static final class Recording implements BindObserver {
        final List<String> bound = new CopyOnWriteArrayList<>();
        final List<String> lockOutcomes = new CopyOnWriteArrayList<>();
        final List<String> gangWaits = new CopyOnWriteArrayList<>();

        @Override
        public void bound(Pod pod, String node, Duration took) {
            bound.add(pod.getMetadata().getName());
        }

        @Override
        public void lock(String node, LockOutcome outcome, Duration took) {
            lockOutcomes.add(outcome.getClass().getSimpleName());
        }

        @Override
        public void gangWaited(String node, LockOutcome outcome, Duration waited) {
            gangWaits.add(outcome.getClass().getSimpleName());
        }
    }

    static Pod groupPod(BindFixture f, String name, String labelGroup, String volcanoGroup) {
        var b = new PodBuilder(BindFixture.gpuPod(name, 8000)).editMetadata();
        if (labelGroup != null) {
            b.addToLabels("scheduling.x-k8s.io/pod-group", labelGroup);
        }
        if (volcanoGroup != null) {
            b.addToAnnotations("scheduling.k8s.io/group-name", volcanoGroup);
        }
        return f.client
                .pods()
                .inNamespace("ns")
                .resource(b.endMetadata().build())
                .create();
    }

    static BindingArgs args(String name) {
        return new BindingArgs(name, "ns", "", "n1");
    }

    /**
     * The node's device plugins: each bound lock holder is allocated after {@code allocation} and its lock released,
     * which the node informer would report; here the loop tells the line itself.
     */
    static Thread plugins(BindFixture f, NodeLockQueue line, AtomicBoolean stop, Duration allocation) {
        return Thread.ofVirtual().start(() -> {
            while (!stop.get()) {
                NodeLock held = f.locks.current("n1");
                if (held != null) {
                    Pod holder = f.client
                            .pods()
                            .inNamespace("ns")
                            .withName(held.name())
                            .get();
                    if (holder != null && "n1".equals(holder.getSpec().getNodeName())) {
                        sleep(allocation.toMillis()); // the allocation's duration: part of what is simulated
                        f.locks.release("n1", held.namespace(), held.name());
                        line.released("n1");
                        continue;
                    }
                }
                sleep(20); // the plugins' poll of the node lock
            }
        });
    }

    @Test
    void gangMembersOnOneNodeAllBindInTheOrderTheyCameWhileOthersAreRefusedAtOnce() throws Exception {
        try (var f = new BindFixture();
                ExecutorService calls = Executors.newVirtualThreadPerTaskExecutor()) {
            f.node("n1", gpu("GPU-0", 0), gpu("GPU-1", 1), gpu("GPU-2", 2), gpu("GPU-3", 3));
            // A long fallback poll: the members here are woken by releases, in order.
            var line = new NodeLockQueue(Duration.ofSeconds(30));
            var seen = new Recording();
            Binder binder = f.binder(seen, BindFixture.WATCH_CURRENT, new GangWaits(Duration.ofSeconds(20), line));

            f.pod("holder", 8000);
            assertThat(binder.bind(args("holder")).ok()).isTrue(); // holds n1's lock until its plugins finish
            groupPod(f, "g1", "train", null);
            groupPod(f, "g2", null, "train"); // Volcano's annotation
            groupPod(f, "g3", "train", null);
            var results = new ArrayList<Future<BindingResult>>();
            for (String g : List.of("g1", "g2", "g3")) {
                int before = line.size("n1");
                results.add(calls.submit(() -> binder.bind(args(g))));
                await(g + " in line").atMost(Patience.seconds(10)).until(() -> line.size("n1") == before + 1);
            }

            // A pod of no gang is refused at once, as before: it does not queue.
            f.pod("solo", 8000);
            long start = System.nanoTime();
            BindingResult solo = binder.bind(args("solo"));
            Duration soloTook = Duration.ofNanos(System.nanoTime() - start);
            assertThat(solo.error()).endsWith("node lock contention, retry later");
            assertThat(soloTook)
                    .as("not queued: far below the 20 s a member may wait")
                    .isLessThan(Patience.seconds(2));
            assertThat(line.size("n1")).isEqualTo(3);

            var stop = new AtomicBoolean();
            Thread kubelet = plugins(f, line, stop, Duration.ofMillis(100));
            try {
                for (var r : results) {
                    BindingResult result = r.get(Patience.seconds(30).toMillis(), TimeUnit.MILLISECONDS);
                    assertThat(result.ok())
                            .as("no gang member refused: %s", result.error())
                            .isTrue();
                }
            } finally {
                stop.set(true);
                kubelet.join();
            }
            assertThat(seen.bound).containsExactly("holder", "g1", "g2", "g3");
            assertThat(seen.gangWaits).containsExactly("Acquired", "Acquired", "Acquired");
            assertThat(seen.lockOutcomes)
                    .as("only what each bind answered with: the gang members' own contention is no refusal")
                    .containsExactly("Acquired", "Contended", "Acquired", "Acquired", "Acquired");
            assertThat(line.waiting("n1")).isFalse();
            assertThat(f.annotations("g3")).containsEntry("hami.io/vgpu-node", "n1");
        }
    }

    @Test
    void aMemberWhoseWaitRunsOutIsRefusedForContentionAsBefore() throws Exception {
        try (var f = new BindFixture()) {
            f.node("n1", gpu("GPU-0", 0), gpu("GPU-1", 1));
            var line = new NodeLockQueue(Duration.ofMillis(100));
            var seen = new Recording();
            Binder binder = f.binder(seen, BindFixture.WATCH_CURRENT, new GangWaits(Duration.ofMillis(600), line));
            f.pod("holder", 8000);
            assertThat(binder.bind(args("holder")).ok()).isTrue(); // never allocated here
            groupPod(f, "g1", "train", null);

            long start = System.nanoTime();
            BindingResult r = binder.bind(args("g1"));
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(r.error())
                    .isEqualTo("node n1 is locked by ns/holder since "
                            + f.locks.current("n1").time() + ": node lock contention, retry later");
            assertThat(took).as("its 600 ms wait, not less").isBetween(Duration.ofMillis(600), Patience.seconds(5));
            assertThat(seen.gangWaits).containsExactly("Contended");
            assertThat(line.waiting("n1")).isFalse();
            assertThat(f.annotations("g1")).doesNotContainKey("hami.io/vgpu-node");
        }
    }

    @Test
    void withTheWaitOffAGangMemberIsRefusedAtOnce() throws Exception {
        try (var f = new BindFixture()) {
            f.node("n1", gpu("GPU-0", 0), gpu("GPU-1", 1));
            var seen = new Recording();
            Binder binder = f.binder(seen, BindFixture.WATCH_CURRENT, GangWaits.off());
            f.pod("holder", 8000);
            assertThat(binder.bind(args("holder")).ok()).isTrue();
            groupPod(f, "g1", "train", null);

            long start = System.nanoTime();
            assertThat(binder.bind(args("g1")).error()).endsWith("node lock contention, retry later");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Patience.seconds(2));
            assertThat(seen.gangWaits).isEmpty();
        }
    }

    /** The simulated plugins' pace (their poll, an allocation's duration): part of what is simulated, not a wait. */
    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
