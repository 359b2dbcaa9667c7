package io.hami.scheduler.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.device.DeviceInfo;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A node name may be 253 characters, a label value only 63: kube-apiserver refuses the {@code hami.io/vgpu-node} label
 * and a label selector for a longer one (found on the real control plane). Binds to such a node must still work and
 * still see the decisions made for it before.
 */
class LongNodeNameTest {
    static final String LONG = "gpu-node-" + "x".repeat(60) + ".example.internal";

    @Test
    void onlyNamesTheApiServerAcceptsAsLabelValuesAreUsedAsLabels() {
        assertThat(Binder.isLabelValue("node-1")).isTrue();
        assertThat(Binder.isLabelValue("a".repeat(63))).isTrue();
        assertThat(Binder.isLabelValue("a".repeat(64))).isFalse();
        assertThat(Binder.isLabelValue(LONG)).isFalse();
        assertThat(Binder.isLabelValue("-starts-with-dash")).isFalse();
    }

    @Test
    void aSecondPodOnALongNamedNodeSeesTheFirstOnesDecision() {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(LONG)
                            .endMetadata()
                            .build())
                    .create();
            var index = new UsageIndex();
            index.putNode(
                    LONG,
                    Map.of(),
                    Map.of(
                            "NVIDIA",
                            List.of(new DeviceInfo("GPU-a", 0, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true))),
                    Map.of());
            for (String name : List.of("a", "b")) {
                client.pods()
                        .inNamespace("ns")
                        .resource(new PodBuilder()
                                .withNewMetadata()
                                .withNamespace("ns")
                                .withName(name)
                                .endMetadata()
                                .withNewSpec()
                                .addNewContainer()
                                .withName("c")
                                .withImage("cuda")
                                .withNewResources()
                                .addToLimits("nvidia.com/gpu", new Quantity("1"))
                                .addToLimits("nvidia.com/gpumem", new Quantity("6000"))
                                .endResources()
                                .endContainer()
                                .endSpec()
                                .build())
                        .create();
            }
            var clock = Clock.systemUTC();
            var locks = new NodeLockClient(client, Duration.ofMinutes(5), clock);
            var binder = new Binder(
                    client,
                    locks,
                    index,
                    new QuotaBook(AlreadyBoundTest.BACKENDS, index),
                    AlreadyBoundTest.BACKENDS,
                    SchedulingPolicy.UPSTREAM_DEFAULTS,
                    () -> true,
                    clock,
                    BindObserver.NONE,
                    new AbandonedDecisions(client, (task, delay) -> {}, List.of()));

            assertThat(binder.bind(new BindingArgs("a", "ns", "", LONG)).ok()).isTrue();
            var a = client.pods().inNamespace("ns").withName("a").get();
            assertThat(a.getMetadata().getAnnotations()).containsEntry(ProtocolKeys.VGPU_NODE, LONG);
            assertThat(a.getMetadata().getLabels()).doesNotContainKey(ProtocolKeys.VGPU_NODE);

            // The first pod's allocation has not reached the index (no informer here): the bind's own read must find
            // it.
            index.removePod("ns/a");
            locks.release(LONG, "ns", "a");
            var second = binder.bind(new BindingArgs("b", "ns", "", LONG));
            assertThat(second.ok()).as("6000 + 6000 MiB on an 8000 MiB card").isFalse();
            assertThat(second.error()).contains("CardInsufficientMemory");
        }
    }
}
