package io.hami.scheduler.bind;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.hami.kube.lock.LockOutcome;
import io.hami.kube.lock.LockTimeouts;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.UsageIndex;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What a bind sends the API server: the binding through {@code pods/{name}/binding}, and no decision written late. */
class BindRequestsTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);
    static final LockTimeouts TIMEOUTS = new LockTimeouts(Duration.ofMinutes(5), Duration.ofSeconds(60));

    final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-08-01T06:00:00Z"));
    final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };
    final List<String> requests = new CopyOnWriteArrayList<>();
    EmbeddedApiServer server;
    KubernetesClient client;

    @BeforeEach
    void start() {
        server = EmbeddedApiServer.start();
        Interceptor recorder = new Interceptor() {
            @Override
            public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
                requests.add(request.method() + " " + request.uri().getPath());
            }
        };
        client = new KubernetesClientBuilder()
                .withConfig(server.clientConfig())
                .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("recorder", recorder))
                .build();
        client.nodes()
                .resource(new NodeBuilder()
                        .withNewMetadata()
                        .withName("n1")
                        .endMetadata()
                        .build())
                .create();
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
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
    }

    Binder binder(BindObserver observer) {
        var index = new UsageIndex();
        index.putNode(
                "n1",
                Map.of(),
                Map.of(
                        "NVIDIA",
                        List.of(new DeviceInfo("GPU-0", 0, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true))),
                Map.of());
        return new Binder(
                client,
                new NodeLockClient(client, TIMEOUTS, clock),
                index,
                new QuotaBook(BACKENDS, index),
                BACKENDS,
                SchedulingPolicy.UPSTREAM_DEFAULTS,
                () -> true,
                clock,
                observer,
                new AbandonedDecisions(client, (task, delay) -> {}, List.of()));
    }

    Map<String, String> annotations() {
        var a = client.pods()
                .inNamespace("ns")
                .withName("a")
                .get()
                .getMetadata()
                .getAnnotations();
        return a == null ? Map.of() : a;
    }

    @Test
    void thePodIsBoundThroughItsBindingSubresource() {
        assertThat(binder(BindObserver.NONE)
                        .bind(new BindingArgs("a", "ns", "", "n1"))
                        .ok())
                .isTrue();

        assertThat(client.pods().inNamespace("ns").withName("a").get().getSpec().getNodeName())
                .isEqualTo("n1");
        assertThat(requests)
                .contains("POST /api/v1/namespaces/ns/pods/a/binding")
                .noneMatch(r -> r.endsWith("/bindings"));
    }

    @Test
    void aBindThatTookHalfTheBindWindowBeforeDecidingGivesUpAndReleasesTheLock() {
        // The API server was slow between the lock and the decision (a pause, retries): 31 s pass.
        BindObserver slow = new BindObserver() {
            @Override
            public void lock(String node, LockOutcome outcome, Duration took) {
                now.set(now.get().plusSeconds(31));
            }
        };
        var result = binder(slow).bind(new BindingArgs("a", "ns", "", "n1"));

        assertThat(result.error())
                .isEqualTo("bind on node n1 had not written its decision 31 s after taking the node lock"
                        + " (limit 30 s, half the lock's bind window); retry");
        assertThat(annotations()).doesNotContainKeys(ProtocolKeys.BIND_PHASE, ProtocolKeys.VGPU_NODE);
        assertThat(client.pods().inNamespace("ns").withName("a").get().getSpec().getNodeName())
                .isNull();
        assertThat(client.nodes().withName("n1").get().getMetadata().getAnnotations())
                .doesNotContainKey(ProtocolKeys.NODE_LOCK);
        assertThat(requests).noneMatch(r -> r.startsWith("POST") && r.contains("binding"));

        // at 30 s it still decides
        BindObserver justInTime = new BindObserver() {
            @Override
            public void lock(String node, LockOutcome outcome, Duration took) {
                now.set(now.get().plusSeconds(30));
            }
        };
        assertThat(binder(justInTime).bind(new BindingArgs("a", "ns", "", "n1")).ok())
                .isTrue();
        assertThat(annotations()).containsEntry(ProtocolKeys.BIND_PHASE, ProtocolKeys.PHASE_ALLOCATING);
    }
}
