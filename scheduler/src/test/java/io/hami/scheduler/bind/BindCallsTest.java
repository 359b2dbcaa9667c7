package io.hami.scheduler.bind;

import static io.hami.scheduler.SchedulerFixture.container;
import static io.hami.scheduler.SchedulerFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.SchedulingPolicy;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What one bind costs the API server (issues 11, 28): with the lock free, the lock write, the decision, the fence read
 * and the binding (the pod comes from the informer, its decision written only if the pod is still that version; no
 * LIST: the pod watch proves the index current); with the lock held by a pod whose bind is under way, nothing (the
 * pod, the lock and its holder come from the informers).
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
    void anUncontendedBindReadsOnceWritesThreeTimesAndListsNothing() {
        Pod a = pending("a");
        awaitInformer(a);

        var counts = bind(a);

        // the pod watch hands the decision back, so the index is proven current without a LIST of the node's pods
        assertThat(counts)
                .isEqualTo(Map.of("patch nodes", 1L, "patch pods", 1L, "get nodes", 1L, "create pods/binding", 1L));
        assertThat(f.get("a").getSpec().getNodeName()).isEqualTo("n1");
        assertThat(f.annotations("a")).containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING);
    }

    @Test
    void contentionIsAnsweredFromTheInformersLockAndHolderWithoutReadingEither() {
        Pod a = pending("a");
        Pod b = pending("b");
        awaitInformer(a);
        bind(a); // a holds the lock until its plugin allocates it

        // once the informers have delivered b, the lock and a's decision, contention costs no request
        await().atMost(Patience.seconds(30))
                .untilAsserted(() -> assertThat(bind(b)).isEmpty());
        assertThat(f.get("b").getSpec().getNodeName()).isNull();
        assertThat(f.annotations("b")).doesNotContainKey(ProtocolKeys.VGPU_NODE);
    }

    private void awaitInformer(Pod p) {
        await().atMost(Patience.seconds(30))
                .until(() -> f.app.watch().pod("default", p.getMetadata().getName()) != null);
    }

    private Pod pending(String name) {
        return f.pod(name, container("c", "nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000"));
    }

    /** The API calls of one bind, without the Events the recorder writes on its own. */
    private Map<String, Long> bind(Pod p) {
        f.server.requests().reset();
        f.app.binder()
                .bind(new BindingArgs(
                        p.getMetadata().getName(), "default", p.getMetadata().getUid(), "n1"));
        var counts = new TreeMap<>(f.server.requests().snapshot());
        counts.keySet().removeIf(k -> k.endsWith(" events"));
        return counts;
    }
}
