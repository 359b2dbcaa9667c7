package io.hami.kube.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.NodeLock;
import io.hami.protocol.codec.NodeLockCodec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The lock client with an informer's view ({@link NodeLockClient.Cached}): a free lock is taken with no read, a stale
 * view costs a conflict and a read but never a wrong answer, contention is answered from the cached holder, and a
 * takeover is still decided on a fresh read of the holder.
 */
class CachedLockReadsTest {
    static final Instant NOW = Instant.parse("2026-08-01T06:00:00Z");
    static final LockTimeouts TIMEOUTS = new LockTimeouts(Duration.ofMinutes(5), Duration.ofSeconds(60));

    EmbeddedApiServer server;
    KubernetesClient client;
    final Map<String, Node> nodes = new HashMap<>();
    final Map<String, Pod> pods = new HashMap<>();
    NodeLockClient locks;

    @BeforeEach
    void start() {
        server = EmbeddedApiServer.start();
        client = server.newClient();
        locks = new NodeLockClient(
                client,
                TIMEOUTS,
                Clock.fixed(NOW, ZoneOffset.UTC),
                new NodeLockClient.Cached(nodes::get, (ns, name) -> pods.get(ns + "/" + name)));
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    Node node(String name, String lock) {
        var b = new NodeBuilder().withNewMetadata().withName(name).endMetadata();
        if (lock != null) {
            b.editMetadata().addToAnnotations(ProtocolKeys.NODE_LOCK, lock).endMetadata();
        }
        return client.nodes().resource(b.build()).create();
    }

    Pod pod(String name, String phase, String decidedFor, Instant bindTime) {
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
            b.editMetadata()
                    .addToAnnotations(ProtocolKeys.BIND_PHASE, phase)
                    .addToAnnotations(ProtocolKeys.VGPU_NODE, decidedFor)
                    .addToAnnotations(ProtocolKeys.BIND_TIME, Long.toString(bindTime.getEpochSecond()))
                    .endMetadata();
        }
        return client.pods().inNamespace("ns").resource(b.build()).create();
    }

    static String lock(Instant at, String pod) {
        return NodeLockCodec.encode(new NodeLock(at.atOffset(ZoneOffset.UTC), "ns", pod));
    }

    @Test
    void aFreeLockIsTakenFromTheCacheWithOneWriteAndNoRead() {
        nodes.put("n", node("n", null));
        server.requests().reset();

        assertThat(locks.acquire("n", "ns", "a")).isInstanceOf(LockOutcome.Acquired.class);

        assertThat(server.requests().snapshot()).isEqualTo(Map.of("patch nodes", 1L));
        assertThat(locks.current("n").isHeldBy("ns", "a")).isTrue();
    }

    @Test
    void aStaleCachedNodeCostsAConflictThenAReadAndNeverHidesALock() {
        nodes.put("n", node("n", null));
        // another replica locked the node after the informer's copy was taken
        client.nodes()
                .withName("n")
                .edit(n -> new NodeBuilder(n)
                        .editMetadata()
                        .addToAnnotations(ProtocolKeys.NODE_LOCK, lock(NOW, "b"))
                        .endMetadata()
                        .build());
        pod("b", null, null, null);
        server.requests().reset();

        var outcome = locks.acquire("n", "ns", "a");

        assertThat(outcome).isInstanceOf(LockOutcome.Contended.class);
        assertThat(locks.current("n").isHeldBy("ns", "b")).isTrue();
        assertThat(server.requests().count("patch nodes")).isEqualTo(1); // the conditional write that lost
        assertThat(server.requests().count("get nodes")).isEqualTo(2); // the read after it, and current() above
    }

    @Test
    void contentionOnAFreshLockIsAnsweredFromTheCachedHolderWithoutReadingIt() {
        node("n", lock(NOW.minusSeconds(5), "b"));
        pods.put("ns/b", pod("b", null, null, null)); // pending: its bind has not written its decision yet
        server.requests().reset();

        var outcome = locks.acquire("n", "ns", "a");

        assertThat(outcome).isInstanceOf(LockOutcome.Contended.class);
        assertThat(server.requests().snapshot()).isEqualTo(Map.of("get nodes", 1L));
    }

    @Test
    void aTakeoverIsDecidedOnAFreshReadOfTheHolderWhateverTheCacheSays() {
        // the cache still shows the holder pending, but its bind window has passed: the holder is read, then replaced
        node("n", lock(NOW.minusSeconds(61), "b"));
        pods.put("ns/b", pod("b", null, null, null));
        server.requests().reset();

        var outcome = locks.acquire("n", "ns", "a");

        assertThat(outcome).isInstanceOf(LockOutcome.Acquired.class);
        assertThat(server.requests().count("get pods")).isPositive();
    }

    @Test
    void aHolderTheCacheDoesNotKnowIsRead() {
        node("n", lock(NOW.minusSeconds(5), "b"));
        pod("b", null, null, null);
        server.requests().reset();

        assertThat(locks.acquire("n", "ns", "a")).isInstanceOf(LockOutcome.Contended.class);
        assertThat(server.requests().count("get pods")).isEqualTo(1);
    }

    @Test
    void aHolderThatFinishedIsReplacedAtOnceEvenWhenTheCacheStillShowsItAllocating() {
        node("n", lock(NOW.minusSeconds(5), "b"));
        Pod allocating = pod("b", "allocating", "n", NOW.minusSeconds(5));
        pods.put("ns/b", allocating);
        // the plugin has since marked it finished; the informer has not delivered that yet
        client.pods()
                .inNamespace("ns")
                .withName("b")
                .edit(p -> new PodBuilder(p)
                        .editMetadata()
                        .addToAnnotations(ProtocolKeys.BIND_PHASE, "success")
                        .endMetadata()
                        .build());

        // the stale cache says wait: contention, which kube-scheduler retries
        assertThat(locks.acquire("n", "ns", "a")).isInstanceOf(LockOutcome.Contended.class);
        // once the informer delivers the change, the fresh read decides and the lock is taken at once
        pods.put("ns/b", client.pods().inNamespace("ns").withName("b").get());
        assertThat(locks.acquire("n", "ns", "a")).isInstanceOf(LockOutcome.Acquired.class);
    }

    @Test
    void aFreshLockTheCacheShowsWithALiveHolderIsAnsweredWithNoReadAtAll() {
        nodes.put("n", node("n", lock(NOW.minusSeconds(5), "b")));
        pods.put("ns/b", pod("b", "allocating", "n", NOW.minusSeconds(5)));
        server.requests().reset();

        var outcome = locks.acquire("n", "ns", "a");

        assertThat(outcome).isInstanceOf(LockOutcome.Contended.class);
        assertThat(((LockOutcome.Contended) outcome).holder().name()).isEqualTo("b");
        assertThat(server.requests().snapshot()).isEmpty();
    }

    @Test
    void aCachedLockPastTheBindWindowIsReadAfreshBeforeAnswering() {
        // the cache shows an old lock whose holder never decided: only a fresh read may decide a takeover
        nodes.put("n", node("n", lock(NOW.minusSeconds(61), "b")));
        pods.put("ns/b", pod("b", null, null, null));
        server.requests().reset();

        assertThat(locks.acquire("n", "ns", "a")).isInstanceOf(LockOutcome.Acquired.class);
        assertThat(server.requests().count("get nodes")).isEqualTo(1);
    }
}
