package io.hami.scheduler.bind;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.SchedulingPolicy;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * What one bind costs the API server (issue 11). The first bind on a node lists the node's decided pods (nothing
 * proves the index has them); once the node watch has seen the previous holder's tenure end and the index holds
 * that holder's decision, a bind reads the pod alone and writes the lock, the decision and the binding. Contention
 * on a fresh lock costs the pod read and nothing more.
 */
class BindCallsTest {
    SchedulerFixture f;

    @BeforeEach
    void start() throws Exception {
        f = new SchedulerFixture(SchedulingPolicy.UPSTREAM_DEFAULTS);
        f.nvidiaNode("n1", gpu("GPU-1", 0, 8000));
        f.awaitNodes("n1");
    }

    @AfterEach
    void stop() {
        f.close();
    }

    @Test
    void theFirstBindOnANodeListsItsDecidedPods() {
        Pod a = pending("a");

        var counts = bind(a);

        assertThat(counts).isEqualTo(Map.of("get pods", 1L, "list pods", 1L, "patch nodes", 1L, "patch pods", 1L,
                "create pods/binding", 1L));
        assertThat(f.get("a").getSpec().getNodeName()).isEqualTo("n1");
        assertThat(f.annotations("a")).containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING);
    }

    @RepeatedTest(5) // the lock's own watch event races the proof: it must not undo it
    void afterTheWatchSawThePreviousHoldersTenureEndABindReadsOnceAndWritesThrice() {
        Pod a = pending("a");
        Pod b = pending("b");
        bind(a);
        f.allocated("a", "n1");

        await().atMost(Duration.ofSeconds(10)).until(() -> f.app.watch().seenEveryDecisionBefore("n1",
                f.client.nodes().withName("n1").get().getMetadata().getResourceVersion()));
        var counts = bind(b);

        assertThat(counts).isEqualTo(Map.of("get pods", 1L, "patch nodes", 1L, "patch pods", 1L, "create pods/binding", 1L));
        // fitted from the index, which held a's 1000 MiB: b was placed beside it, on what is left
        assertThat(f.get("b").getSpec().getNodeName()).isEqualTo("n1");
        assertThat(f.app.index().snapshot("n1").orElseThrow().view().devices().get("NVIDIA").getFirst().usedmem()).isEqualTo(2000);
    }

    @Test
    void whenThePreviousHoldersDecisionIsGoneTheBindListsAgain() {
        Pod a = pending("a");
        Pod b = pending("b");
        bind(a);
        f.allocated("a", "n1");
        f.client.pods().inNamespace("default").withName("a").withGracePeriod(0).delete();
        await().atMost(Duration.ofSeconds(10)).until(() -> f.app.index().recordedVersion("default/a") < 0);

        assertThat(bind(b)).containsEntry("list pods", 1L);
        assertThat(f.get("b").getSpec().getNodeName()).isEqualTo("n1");
    }

    @Test
    void contentionIsAnsweredFromTheInformersLockAndHolderWithoutReadingEither() {
        Pod a = pending("a");
        Pod b = pending("b");
        bind(a); // a holds the lock until its plugin allocates it

        // once the informer has delivered the lock and a's decision, contention costs the pod read, nothing more
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(bind(b)).isEqualTo(Map.of("get pods", 1L)));
        assertThat(f.get("b").getSpec().getNodeName()).isNull();
        assertThat(f.annotations("b")).doesNotContainKey(ProtocolKeys.VGPU_NODE);
    }

    private Pod pending(String name) {
        return f.pod(name, container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"));
    }

    /** The API calls of one bind, without the Events the recorder writes on its own. */
    private Map<String, Long> bind(Pod p) {
        f.server.requests().reset();
        f.app.binder().bind(new BindingArgs(p.getMetadata().getName(), "default", p.getMetadata().getUid(), "n1"));
        var counts = new TreeMap<>(f.server.requests().snapshot());
        counts.keySet().removeIf(k -> k.endsWith(" events"));
        return counts;
    }
}
