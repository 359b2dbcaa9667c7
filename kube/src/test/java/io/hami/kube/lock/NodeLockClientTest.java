package io.hami.kube.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.NodeLockCodec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Design D5 (docs/design.md#d5) against the embedded API server: real patches, real resourceVersion conflicts. */
class NodeLockClientTest {
    static EmbeddedApiServer server;
    static KubernetesClient client;
    static final Duration TIMEOUT = Duration.ofMinutes(5);
    final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-08-01T06:00:00Z"));
    final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    NodeLockClient locks;
    String node;
    static int seq;

    @BeforeAll
    static void start() {
        server = EmbeddedApiServer.start();
        client = server.newClient();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @BeforeEach
    void node() {
        node = "node-" + (++seq);
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName(node)
                        .endMetadata()
                        .build())
                .create();
        locks = new NodeLockClient(client, TIMEOUT, clock);
        server.faults().clear();
    }

    void pod(String name, String phase, String onNode) {
        var b = new PodBuilder()
                .withNewMetadata()
                .withNamespace("ns")
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("c")
                .endContainer()
                .endSpec();
        if (phase != null) {
            // a decision bound to its node, as the kubelet sees it when it calls Allocate
            b.editMetadata()
                    .addToAnnotations(ProtocolKeys.BIND_PHASE, phase)
                    .addToAnnotations(ProtocolKeys.VGPU_NODE, onNode)
                    .addToAnnotations(
                            ProtocolKeys.BIND_TIME, Long.toString(now.get().getEpochSecond()))
                    .endMetadata()
                    .editSpec()
                    .withNodeName(onNode)
                    .endSpec();
        }
        client.pods().inNamespace("ns").resource(b.build()).createOr(p -> p.update());
    }

    /** A holder allocating under a lock taken now, whose pod is in {@code podPhase}. */
    void holderIn(String name, String podPhase) {
        pod(name, "allocating", node);
        client.pods()
                .inNamespace("ns")
                .withName(name)
                .edit(p -> new PodBuilder(p)
                        .withNewStatus()
                        .withPhase(podPhase)
                        .endStatus()
                        .build());
    }

    String lockValue() {
        var a = client.nodes().withName(node).get().getMetadata().getAnnotations();
        return a == null ? null : a.get(ProtocolKeys.NODE_LOCK);
    }

    String phase(String pod) {
        return client.pods()
                .inNamespace("ns")
                .withName(pod)
                .get()
                .getMetadata()
                .getAnnotations()
                .get(ProtocolKeys.BIND_PHASE);
    }

    @Test
    void writesTheUpstreamValueAndIsReentrantForTheSamePod() {
        var first = locks.acquire(node, "ns", "a");
        assertThat(first).isInstanceOf(LockOutcome.Acquired.class);
        assertThat(lockValue()).isEqualTo("2026-08-01T06:00:00Z,ns,a");
        now.set(now.get().plusSeconds(30));
        var again = (LockOutcome.Acquired) locks.acquire(node, "ns", "a");
        assertThat(again.reentered()).isTrue();
        assertThat(lockValue()).isEqualTo("2026-08-01T06:00:00Z,ns,a");
    }

    @Test
    void aLiveHolderMakesOthersContendAndOnlyTheHolderReleases() {
        pod("a", "allocating", node);
        locks.acquire(node, "ns", "a");
        var other = locks.acquire(node, "ns", "b");
        assertThat(other).isInstanceOf(LockOutcome.Contended.class);
        assertThat(((LockOutcome.Contended) other).message())
                .contains("locked by ns/a")
                .contains("retry");
        // b cannot release a's lock, nor can a pod whose name merely ends the same way
        assertThat(locks.release(node, "ns", "b")).isFalse();
        assertThat(locks.release(node, "s", "a")).isFalse();
        assertThat(lockValue()).isEqualTo("2026-08-01T06:00:00Z,ns,a");
        assertThat(locks.release(node, "ns", "a")).isTrue();
        assertThat(lockValue()).isNull();
        assertThat(client.nodes().withName(node).get().getMetadata().getAnnotations())
                .doesNotContainKey(ProtocolKeys.NODE_LOCK);
    }

    @Test
    void aDeadHolderIsReplacedAtOnce() {
        locks.acquire(node, "ns", "gone"); // no such pod
        assertThat(locks.acquire(node, "ns", "b")).isInstanceOf(LockOutcome.Acquired.class);
        assertThat(lockValue()).endsWith(",ns,b");
        pod("done", "success", node); // finished its allocation but never released
        locks.release(node, "ns", "b");
        locks.acquire(node, "ns", "done");
        assertThat(locks.acquire(node, "ns", "c")).isInstanceOf(LockOutcome.Acquired.class);
    }

    @Test
    void anExpiredHolderStillAllocatingIsMarkedFailedBeforeTheLockMoves() {
        pod("slow", "allocating", node);
        locks.acquire(node, "ns", "slow");
        now.set(now.get().plus(TIMEOUT));
        assertThat(locks.acquire(node, "ns", "next")).isInstanceOf(LockOutcome.Contended.class);
        assertThat(phase("slow")).isEqualTo("allocating");
        now.set(now.get().plusSeconds(1));
        assertThat(locks.acquire(node, "ns", "next")).isInstanceOf(LockOutcome.Acquired.class);
        assertThat(phase("slow")).isEqualTo("failed");
        assertThat(lockValue()).isEqualTo("2026-08-01T06:05:01Z,ns,next");
    }

    @Test
    void aHolderTheKubeletRejectedOrThatFinishedIsFailedAndReplacedAtOnce() {
        for (String podPhase : List.of("Failed", "Succeeded")) {
            String holder = "rejected-" + podPhase.toLowerCase(Locale.ROOT);
            holderIn(holder, podPhase);
            assertThat(locks.acquire(node, "ns", holder)).isInstanceOf(LockOutcome.Acquired.class);
            var next = locks.acquire(node, "ns", "next-" + podPhase.toLowerCase(Locale.ROOT));
            assertThat(next).as("after a %s holder", podPhase).isInstanceOf(LockOutcome.Acquired.class);
            assertThat(phase(holder)).isEqualTo("failed");
            assertThat(lockValue()).isEqualTo("2026-08-01T06:00:00Z,ns,next-" + podPhase.toLowerCase(Locale.ROOT));
            locks.release(node, "ns", "next-" + podPhase.toLowerCase(Locale.ROOT));
        }
    }

    @Test
    void aHolderBeingDeletedIsFailedAndReplacedAtOnce() {
        pod("leaving", "allocating", node);
        client.pods()
                .inNamespace("ns")
                .withName("leaving")
                .edit(p -> new PodBuilder(p)
                        .editMetadata()
                        .addToFinalizers("e2e.hami.io/hold")
                        .endMetadata()
                        .build());
        locks.acquire(node, "ns", "leaving");
        client.pods().inNamespace("ns").withName("leaving").delete();
        assertThat(client.pods()
                        .inNamespace("ns")
                        .withName("leaving")
                        .get()
                        .getMetadata()
                        .getDeletionTimestamp())
                .as("the finalizer keeps the pod, being deleted")
                .isNotNull();
        assertThat(locks.acquire(node, "ns", "next")).isInstanceOf(LockOutcome.Acquired.class);
        assertThat(phase("leaving")).isEqualTo("failed");
        assertThat(lockValue()).endsWith(",ns,next");
        client.pods()
                .inNamespace("ns")
                .withName("leaving")
                .edit(p -> new PodBuilder(p)
                        .editMetadata()
                        .withFinalizers()
                        .endMetadata()
                        .build());
    }

    @Test
    void aRunningHolderStillAllocatingKeepsTheLock() {
        holderIn("running", "Running");
        locks.acquire(node, "ns", "running");
        now.set(now.get().plus(TIMEOUT));
        assertThat(locks.acquire(node, "ns", "next")).isInstanceOf(LockOutcome.Contended.class);
        assertThat(phase("running")).isEqualTo("allocating");
    }

    @Test
    void aHolderThatNeverWroteItsDecisionKeepsTheLockForTheBindWindowOnly() {
        pod("crashed", null, null); // its scheduler stopped between taking the lock and deciding
        locks.acquire(node, "ns", "crashed");
        Duration window = locks.timeouts().bindWindow();
        assertThat(window).isLessThan(TIMEOUT);
        now.set(now.get().plus(window));
        assertThat(locks.acquire(node, "ns", "next")).isInstanceOf(LockOutcome.Contended.class);
        now.set(now.get().plusSeconds(1));
        assertThat(locks.acquire(node, "ns", "next")).isInstanceOf(LockOutcome.Acquired.class);
        assertThat(lockValue()).isEqualTo("2026-08-01T06:01:01Z,ns,next");
        assertThat(client.pods()
                        .inNamespace("ns")
                        .withName("crashed")
                        .get()
                        .getMetadata()
                        .getAnnotations())
                .as("nothing written to a holder without a decision")
                .isNullOrEmpty();
    }

    @Test
    void aDecisionNeverBoundIsFailedAndReplacedAfterTheBindWindow() {
        // its scheduler stopped between writing the decision and posting the binding
        pod("unbound", "allocating", node);
        client.pods()
                .inNamespace("ns")
                .withName("unbound")
                .edit(p -> new PodBuilder(p)
                        .editSpec()
                        .withNodeName(null)
                        .endSpec()
                        .build());
        locks.acquire(node, "ns", "unbound");
        now.set(now.get().plus(locks.timeouts().bindWindow()));
        assertThat(locks.acquire(node, "ns", "next")).isInstanceOf(LockOutcome.Contended.class);
        assertThat(phase("unbound")).isEqualTo("allocating");
        now.set(now.get().plusSeconds(1));
        assertThat(locks.acquire(node, "ns", "next")).isInstanceOf(LockOutcome.Acquired.class);
        assertThat(phase("unbound")).isEqualTo("failed");
        assertThat(lockValue()).isEqualTo("2026-08-01T06:01:01Z,ns,next");
    }

    /**
     * A bind that stalled past the bind window writes its decision just after the next bind read it as idle and just
     * before that bind's lock write: its own check of the lock passed, so it goes ahead. The taker sees the decision
     * when it reads the holder again and gives the lock back.
     */
    @Test
    void aStalledHolderThatDecidesWhileTheLockIsTakenOverGetsItBack() {
        pod("stalled", null, null);
        locks.acquire(node, "ns", "stalled");
        String held = lockValue();
        now.set(now.get().plus(locks.timeouts().bindWindow()).plusSeconds(1));
        var once = new java.util.concurrent.atomic.AtomicBoolean();
        Interceptor beforeNodePatch = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                if (request.method().equals("PATCH")
                        && request.uri().getPath().equals("/api/v1/nodes/" + node)
                        && once.compareAndSet(false, true)) {
                    // the stalled bind's decision, under its lock's time
                    client.pods()
                            .inNamespace("ns")
                            .withName("stalled")
                            .edit(p -> new PodBuilder(p)
                                    .editMetadata()
                                    .addToAnnotations(ProtocolKeys.BIND_PHASE, "allocating")
                                    .addToAnnotations(ProtocolKeys.VGPU_NODE, node)
                                    .addToAnnotations(ProtocolKeys.BIND_TIME, "1785564000")
                                    .endMetadata()
                                    .build());
                }
            }
        };
        try (KubernetesClient hooked = new KubernetesClientBuilder()
                .withConfig(server.clientConfig())
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("decide-meanwhile", beforeNodePatch))
                .build()) {
            var taker = new NodeLockClient(hooked, TIMEOUT, clock);
            var outcome = taker.acquire(node, "ns", "next");
            assertThat(once).isTrue();
            assertThat(outcome).isInstanceOf(LockOutcome.Contended.class);
            assertThat(lockValue()).isEqualTo(held);
            assertThat(phase("stalled")).isEqualTo("allocating");
            // its binding follows: its allocation is live under its lock, which it keeps until the allocation timeout
            client.pods()
                    .inNamespace("ns")
                    .withName("stalled")
                    .edit(p -> new PodBuilder(p)
                            .editSpec()
                            .withNodeName(node)
                            .endSpec()
                            .build());
            assertThat(taker.acquire(node, "ns", "next")).isInstanceOf(LockOutcome.Contended.class);
        }
    }

    @Test
    void aReenteringPodWithoutALiveDecisionGetsAFreshLockTime() {
        pod("again", null, null);
        locks.acquire(node, "ns", "again");
        now.set(now.get().plusSeconds(50));
        var renewed = (LockOutcome.Acquired) locks.acquire(node, "ns", "again");
        assertThat(renewed.reentered()).isTrue();
        assertThat(lockValue())
                .isEqualTo("2026-08-01T06:00:50Z,ns,again")
                .isEqualTo(NodeLockCodec.encode(renewed.lock()));
        // with its decision written the lock keeps the time the decision is recognised by
        pod("again", "allocating", node);
        now.set(now.get().plusSeconds(50));
        assertThat(((LockOutcome.Acquired) locks.acquire(node, "ns", "again")).reentered())
                .isTrue();
        assertThat(lockValue()).isEqualTo("2026-08-01T06:00:50Z,ns,again");
    }

    @Test
    void aLockWrittenByALostResponseIsRecognisedAsOurs() {
        // The first attempt's patch landed but its response was lost: the next attempt finds its own lock.
        client.nodes()
                .withName(node)
                .edit(n -> new NodeBuilder(n)
                        .editMetadata()
                        .addToAnnotations(ProtocolKeys.NODE_LOCK, "2026-08-01T05:59:59Z,ns,a")
                        .endMetadata()
                        .build());
        var again = (LockOutcome.Acquired) locks.acquire(node, "ns", "a");
        assertThat(again.reentered()).isTrue();
    }

    @Test
    void conflictsAreRetriedAndOtherErrorsReported() {
        server.faults().failNext("PATCH", "/api/v1/nodes/" + node, 409, 2);
        assertThat(locks.acquire(node, "ns", "a")).isInstanceOf(LockOutcome.Acquired.class);
        locks.release(node, "ns", "a");
        // 403 is not retried by the client (it retries 5xx itself), so it reaches the lock code
        server.faults().failNext("PATCH", "/api/v1/nodes/" + node, 403, 1);
        var failed = locks.acquire(node, "ns", "a");
        assertThat(failed).isInstanceOf(LockOutcome.Failed.class);
        assertThat(lockValue()).isNull();
        assertThat(locks.acquire("no-such-node", "ns", "a"))
                .isEqualTo(new LockOutcome.Failed("no-such-node", "node no-such-node not found"));
    }

    @Test
    void ofManyConcurrentContendersExactlyOneWins() throws Exception {
        for (int i = 0; i < 8; i++) {
            pod("p" + i, "allocating", node);
        }
        var pool = Executors.newFixedThreadPool(8);
        var start = new CountDownLatch(1);
        var futures = new ArrayList<Future<LockOutcome>>();
        for (int i = 0; i < 8; i++) {
            String pod = "p" + i;
            Callable<LockOutcome> c = () -> {
                start.await();
                return locks.acquire(node, "ns", pod);
            };
            futures.add(pool.submit(c));
        }
        start.countDown();
        List<LockOutcome> outcomes = new ArrayList<>();
        for (var f : futures) {
            outcomes.add(f.get());
        }
        pool.shutdown();
        var winners =
                outcomes.stream().filter(o -> o instanceof LockOutcome.Acquired).toList();
        assertThat(winners).hasSize(1);
        String winner = ((LockOutcome.Acquired) winners.getFirst()).lock().name();
        assertThat(lockValue()).endsWith(",ns," + winner);
        assertThat(outcomes)
                .filteredOn(o -> !(o instanceof LockOutcome.Acquired))
                .allMatch(o -> o instanceof LockOutcome.Contended);
    }

    @Test
    void anUnreadableLockIsReplaced() {
        client.nodes()
                .withName(node)
                .edit(n -> new NodeBuilder(n)
                        .editMetadata()
                        .addToAnnotations(ProtocolKeys.NODE_LOCK, "garbage,x")
                        .endMetadata()
                        .build());
        assertThat(locks.acquire(node, "ns", "a")).isInstanceOf(LockOutcome.Acquired.class);
        assertThat(lockValue()).isEqualTo("2026-08-01T06:00:00Z,ns,a");
    }
}
