package io.hami.scheduler.bind;

import static io.hami.scheduler.bind.AlreadyBoundTest.BACKENDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.device.DeviceInfo;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A decision fitted on an index that lacks another replica's decision written just before (a leader change mid-bind)
 * is checked, once written, against the index made current: by the pod watch handing over every change up to it, or
 * by a LIST of the node's decided pods when the watch does not get there. A collision gives the bind up.
 */
class EarlierDecisionCheckTest {
    static final DeviceInfo GPU = new DeviceInfo("GPU-1", 0, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true);

    EmbeddedApiServer server;
    KubernetesClient client;
    Pod other;

    @BeforeEach
    void earlierReplicaDecides() {
        server = EmbeddedApiServer.start();
        client = server.newClient();
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("n1")
                        .endMetadata()
                        .build())
                .create();
        pod("other", 6000);
        var first = binder(index(), null);
        assertThat(first.bind(new BindingArgs("other", "ns", "", "n1")).ok()).isTrue();
        // its plugin allocated it and gave the lock back
        assertThat(new NodeLockClient(client, Duration.ofMinutes(5), Clock.systemUTC()).release("n1", "ns", "other"))
                .isTrue();
        other = client.pods().inNamespace("ns").withName("other").get();
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    @Test
    void theWatchHandsOverTheEarlierDecisionAndTheCollidingBindGivesUpWithoutAList() {
        pod("a", 3000);
        var stale = index();
        server.requests().reset();

        BindingResult result = binder(stale, (rv, max) -> {
                    // what the pod watch delivers before our own decision comes back
                    stale.putPod(
                            "ns/other",
                            PodUsage.of(other, BACKENDS),
                            other.getMetadata().getResourceVersion());
                    return true;
                })
                .bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.ok()).isFalse();
        assertThat(result.error())
                .contains("another decision took the room first", "GPU-1", "9000 MiB granted of 8000");
        assertThat(server.requests().count("list pods")).isZero();
        assertGaveUp();
    }

    @Test
    void aWatchThatDoesNotGetThereIsReplacedByAList() {
        pod("a", 3000);
        server.requests().reset();

        BindingResult result = binder(index(), (rv, max) -> false).bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.ok()).isFalse();
        assertThat(result.error()).contains("another decision took the room first", "9000 MiB granted of 8000");
        assertThat(server.requests().count("list pods")).isEqualTo(1);
        assertGaveUp();
    }

    @Test
    void aDecisionThatFitsBesideTheEarlierOneIsBound() {
        pod("a", 2000);
        var stale = index();

        BindingResult result = binder(stale, (rv, max) -> {
                    stale.putPod(
                            "ns/other",
                            PodUsage.of(other, BACKENDS),
                            other.getMetadata().getResourceVersion());
                    return true;
                })
                .bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.ok()).as(result.error()).isTrue();
        assertThat(client.pods().inNamespace("ns").withName("a").get().getSpec().getNodeName())
                .isEqualTo("n1");
    }

    private void assertGaveUp() {
        Pod a = client.pods().inNamespace("ns").withName("a").get();
        assertThat(a.getSpec().getNodeName()).isNull();
        assertThat(a.getMetadata().getAnnotations()).containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_FAILED);
        assertThat(new NodeLockClient(client, Duration.ofMinutes(5), Clock.systemUTC()).current("n1"))
                .isNull();
    }

    /** An index that knows the node but not the earlier replica's decision. */
    private static UsageIndex index() {
        var index = new UsageIndex();
        index.putNode("n1", Map.of(), Map.of("NVIDIA", List.of(GPU)), Map.of());
        return index;
    }

    private Binder binder(UsageIndex index, PodChangesSeen seen) {
        var clock = Clock.systemUTC();
        return new Binder(
                client,
                new NodeLockClient(client, Duration.ofMinutes(5), clock),
                index,
                new QuotaBook(BACKENDS, index),
                BACKENDS,
                SchedulingPolicy.UPSTREAM_DEFAULTS,
                () -> true,
                clock,
                new BindObserver() {},
                new AbandonedDecisions(client, (task, delay) -> {}, List.of()),
                seen);
    }

    private void pod(String name, int memMiB) {
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
                        .addToLimits("nvidia.com/gpumem", new Quantity(Integer.toString(memMiB)))
                        .endResources()
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }
}
