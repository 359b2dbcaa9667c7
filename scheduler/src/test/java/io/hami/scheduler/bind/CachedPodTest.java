package io.hami.scheduler.bind;

import static io.hami.scheduler.bind.BindFixture.WATCH_CURRENT;
import static io.hami.scheduler.bind.BindFixture.gpu;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.kube.lock.NodeLockClient;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.kube.patch.MergePatches;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.scheduler.extender.BindingArgs;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A bind takes the pod from the scheduler's informer instead of reading it (issue 28), and writes its decision only if
 * the pod is still the version it decided on: an informer's copy that is behind never decides the pod.
 */
class CachedPodTest {
    static final String USE_UUID = "nvidia.com/use-gpuuuid";

    BindFixture f;

    @BeforeEach
    void start() {
        f = new BindFixture();
        f.node("n1", gpu("GPU-0", 0), gpu("GPU-1", 1));
        f.node("n2", gpu("GPU-n2", 0));
    }

    @AfterEach
    void stop() {
        f.close();
    }

    /** The informer's copy of ns/a is {@code copy}, whatever the API server holds now. */
    private Binder binderSeeing(Pod copy) {
        var cached = new NodeLockClient.Cached(
                name -> null, (ns, name) -> ns.equals("ns") && name.equals("a") ? copy : null);
        return f.binder(BindObserver.NONE, WATCH_CURRENT, cached);
    }

    private Pod createA(String gpu) {
        return f.client
                .pods()
                .inNamespace("ns")
                .resource(new PodBuilder(BindFixture.gpuPod("a", 1000))
                        .editMetadata()
                        .addToAnnotations(USE_UUID, gpu)
                        .endMetadata()
                        .build())
                .create();
    }

    @Test
    void aCurrentCopyIsBoundAsItIs() {
        Pod a = createA("GPU-1");

        var result =
                binderSeeing(a).bind(new BindingArgs("a", "ns", a.getMetadata().getUid(), "n1"));

        assertThat(result.ok()).as(result.error()).isTrue();
        assertThat(f.nodeName("a")).isEqualTo("n1");
        assertThat(f.annotations("a").get("hami.io/vgpu-devices-allocated")).contains("GPU-1");
    }

    @Test
    void aPodChangedSinceTheCopyIsDecidedOnWhatItIsNow() {
        Pod copy = createA("GPU-0");
        // The pod now asks for the other GPU; the informer has not delivered that yet.
        MergePatches.pod(f.client, "ns", "a", AnnotationPatch.mergePatch(Map.of(USE_UUID, "GPU-1"), Map.of(), null));

        var result = binderSeeing(copy).bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.ok()).as(result.error()).isTrue();
        Map<String, String> a = f.annotations("a");
        assertThat(a.get("hami.io/vgpu-devices-allocated")).contains("GPU-1").doesNotContain("GPU-0");
        assertThat(a).containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING);
        assertThat(f.locks.current("n1").isHeldBy("ns", "a")).isTrue();
    }

    @Test
    void aPodBoundSinceTheCopyIsNotDecidedAgain() {
        Pod copy = createA("GPU-0");
        new PodCalls(f.client, BindFixture.BACKENDS).bind(copy, "n2"); // bound elsewhere, by another scheduler

        var result = binderSeeing(copy).bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.error()).isEqualTo("pod ns/a is already bound to node n2");
        assertThat(f.nodeName("a")).isEqualTo("n2");
        assertThat(f.annotations("a")).doesNotContainKeys(ProtocolKeys.VGPU_NODE, ProtocolKeys.BIND_PHASE);
        assertThat(f.locks.current("n1"))
                .as("n1's lock, taken on the copy, is released")
                .isNull();
    }
}
