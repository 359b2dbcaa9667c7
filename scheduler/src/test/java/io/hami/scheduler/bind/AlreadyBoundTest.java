package io.hami.scheduler.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.lock.LockOutcome;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.BindingResult;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * kube-scheduler gives up on a bind after its {@code httpTimeout} (30 s as deployed) and schedules the pod again, maybe
 * to another node, while the first bind may still be running in the extender or may have bound the pod already. The
 * pod's decision, which its node may be allocating or running, must stay the one it was bound with.
 */
class AlreadyBoundTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);

    private static Binder binder(KubernetesClient client, BindObserver observer) {
        var index = new UsageIndex();
        for (String n : List.of("n1", "n2")) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(n)
                            .endMetadata()
                            .build())
                    .create();
            index.putNode(
                    n,
                    Map.of(),
                    Map.of(
                            "NVIDIA",
                            List.of(new DeviceInfo("GPU-" + n, 0, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true))),
                    Map.of());
        }
        client.pods()
                .inNamespace("ns")
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withNamespace("ns")
                        .withName("a")
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("c")
                        .withImage("cuda")
                        .withNewResources()
                        .addToLimits("nvidia.com/gpu", new Quantity("1"))
                        .addToLimits("nvidia.com/gpumem", new Quantity("1000"))
                        .endResources()
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
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
                observer,
                new AbandonedDecisions(client, (task, delay) -> {}, List.of()));
    }

    @Test
    void aBindOfAPodWhoseEarlierBindIsStillRunningIsRefused() throws Exception {
        var locked = new CountDownLatch(1);
        var goOn = new CountDownLatch(1);
        // Pauses the first bind right after it took n1's lock, as a slow API server would.
        BindObserver pausing = new BindObserver() {
            @Override
            public void lock(String node, LockOutcome outcome, Duration took) {
                if (node.equals("n1")) {
                    locked.countDown();
                    try {
                        goOn.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient();
                var executor = Executors.newVirtualThreadPerTaskExecutor()) {
            Binder binder = binder(client, pausing);
            Future<BindingResult> first = executor.submit(() -> binder.bind(new BindingArgs("a", "ns", "", "n1")));
            assertThat(locked.await(30, TimeUnit.SECONDS)).isTrue();

            assertThat(binder.bind(new BindingArgs("a", "ns", "", "n2")).error())
                    .isEqualTo("pod ns/a is being bound by an earlier call that has not finished; retry");
            goOn.countDown();
            assertThat(first.get(30, TimeUnit.SECONDS).ok()).isTrue();

            Pod now = client.pods().inNamespace("ns").withName("a").get();
            assertThat(now.getSpec().getNodeName()).isEqualTo("n1");
            assertThat(now.getMetadata().getAnnotations()).containsEntry(ProtocolKeys.VGPU_NODE, "n1");
            assertThat(now.getMetadata().getAnnotations().get("hami.io/vgpu-devices-allocated"))
                    .startsWith("GPU-n1,");
            assertThat(client.nodes().withName("n2").get().getMetadata().getAnnotations())
                    .as("n2's lock was never taken")
                    .doesNotContainKey(ProtocolKeys.NODE_LOCK);
        }
    }

    @Test
    void aBoundPodKeepsItsDecisionAndIsNotBoundElsewhere() {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            Binder binder = binder(client, BindObserver.NONE);

            assertThat(binder.bind(new BindingArgs("a", "ns", "", "n1")).ok()).isTrue();
            Pod bound = client.pods().inNamespace("ns").withName("a").get();

            assertThat(binder.bind(new BindingArgs("a", "ns", "", "n2")).error())
                    .isEqualTo("pod ns/a is already bound to node n1");
            assertThat(binder.bind(new BindingArgs("a", "ns", "", "n1")).ok())
                    .as("the lost answer, repeated")
                    .isTrue();

            Pod now = client.pods().inNamespace("ns").withName("a").get();
            assertThat(now.getSpec().getNodeName()).isEqualTo("n1");
            assertThat(now.getMetadata().getAnnotations())
                    .isEqualTo(bound.getMetadata().getAnnotations())
                    .containsEntry(ProtocolKeys.VGPU_NODE, "n1");
            assertThat(client.nodes().withName("n2").get().getMetadata().getAnnotations())
                    .as("n2's lock was never taken")
                    .doesNotContainKey(ProtocolKeys.NODE_LOCK);
        }
    }

    /**
     * A bind of a pod whose earlier bind (another replica's, stopped mid-bind during a leader failover) took the node
     * lock and wrote its decision but had not posted the binding: the decision may already be served to the kubelet,
     * so it is completed as it stands, never replaced (seen as a grants violation in the lab's faults scenario).
     */
    @Test
    void anEarlierDecisionUnderTheSameLockIsCompletedNotReplaced() {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            var index = new UsageIndex();
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("n1")
                            .endMetadata()
                            .build())
                    .create();
            index.putNode(
                    "n1",
                    Map.of(),
                    Map.of(
                            "NVIDIA",
                            List.of(
                                    new DeviceInfo("GPU-0", 0, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true),
                                    new DeviceInfo("GPU-1", 1, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true))),
                    Map.of());
            client.pods()
                    .inNamespace("ns")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withNamespace("ns")
                            .withName("a")
                            .endMetadata()
                            .withNewSpec()
                            .addNewContainer()
                            .withName("c")
                            .withImage("cuda")
                            .withNewResources()
                            .addToLimits("nvidia.com/gpu", new Quantity("1"))
                            .addToLimits("nvidia.com/gpumem", new Quantity("1000"))
                            .endResources()
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();
            var clock = Clock.systemUTC();
            var locks = new NodeLockClient(client, Duration.ofMinutes(5), clock);
            // The earlier bind: lock taken, decision written (without a bind-time: a new decision would add one).
            assertThat(locks.acquire("n1", "ns", "a")).isInstanceOf(LockOutcome.Acquired.class);
            String decision = "GPU-1,NVIDIA,1000,0:;";
            client.pods()
                    .inNamespace("ns")
                    .withName("a")
                    .edit(p -> new PodBuilder(p)
                            .editMetadata()
                            .addToAnnotations(ProtocolKeys.VGPU_NODE, "n1")
                            .addToAnnotations(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING)
                            .addToAnnotations("hami.io/vgpu-devices-to-allocate", decision)
                            .addToAnnotations("hami.io/vgpu-devices-allocated", decision)
                            .endMetadata()
                            .build());
            Pod before = client.pods().inNamespace("ns").withName("a").get();
            var binder = new Binder(
                    client,
                    locks,
                    index,
                    new QuotaBook(BACKENDS, index),
                    BACKENDS,
                    new SchedulingPolicy("binpack", "binpack"),
                    () -> true,
                    clock,
                    BindObserver.NONE,
                    new AbandonedDecisions(client, (task, delay) -> {}, List.of()));

            assertThat(binder.bind(new BindingArgs("a", "ns", "", "n1")).ok()).isTrue();

            Pod now = client.pods().inNamespace("ns").withName("a").get();
            assertThat(now.getSpec().getNodeName()).isEqualTo("n1");
            assertThat(now.getMetadata().getAnnotations())
                    .isEqualTo(before.getMetadata().getAnnotations());
        }
    }
}
