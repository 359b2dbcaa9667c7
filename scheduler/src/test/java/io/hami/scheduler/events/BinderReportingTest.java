package io.hami.scheduler.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.lock.NodeLockClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.scheduler.bind.AbandonedDecisions;
import io.hami.scheduler.bind.Binder;
import io.hami.scheduler.extender.BindingArgs;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.metrics.SchedulerMetrics;
import io.hami.scheduler.metrics.Scrape;
import io.hami.scheduler.quota.QuotaBook;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Binder's outcomes, lock included, as the scheduler wires them: one composite feeding metrics and events. */
class BinderReportingTest {
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);

    static Pod gpuPod(String name) {
        return new PodBuilder()
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
                .addToLimits("nvidia.com/gpumem", new Quantity("1000"))
                .endResources()
                .endContainer()
                .endSpec()
                .build();
    }

    @Test
    void boundContendedAndFailedBindsAreTimedCountedAndReportedOnThePod() {
        var registry = new PrometheusRegistry();
        var metrics = new SchedulerMetrics(registry, "test");
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("n1")
                            .endMetadata()
                            .build())
                    .create();
            for (String name : List.of("a", "b", "c")) {
                client.pods().inNamespace("ns").resource(gpuPod(name)).create();
            }
            var index = new UsageIndex();
            index.putNode(
                    "n1",
                    Map.of(),
                    Map.of(
                            "NVIDIA",
                            List.of(new DeviceInfo("G1", 0, 10, 8000, 100, "NVIDIA-A100", 0, "hami-core", true))),
                    Map.of());
            var clock = Clock.systemUTC();
            try (var events = new EventRecorder(client, "hami-scheduler", registry, clock)) {
                var binder = new Binder(
                        client,
                        new NodeLockClient(client, Duration.ofMinutes(5), clock),
                        index,
                        new QuotaBook(BACKENDS, index),
                        BACKENDS,
                        SchedulingPolicy.UPSTREAM_DEFAULTS,
                        () -> true,
                        clock,
                        CompositeObserver.bind(metrics, events),
                        new AbandonedDecisions(client, (task, delay) -> {}, List.of()));

                assertThat(binder.bind(new BindingArgs("a", "ns", "", "n1")).ok())
                        .isTrue();
                // a holds n1's lock until its device plugin has allocated it
                assertThat(binder.bind(new BindingArgs("b", "ns", "", "n1")).error())
                        .contains("node lock contention");
                assertThat(binder.bind(new BindingArgs("c", "ns", "", "ghost")).error())
                        .contains("node ghost not found");
                assertThat(binder.bind(new BindingArgs("nope", "ns", "", "n1")).error())
                        .isEqualTo("pod ns/nope not found");
            }

            assertThat(client.v1().events().inNamespace("ns").list().getItems())
                    .extracting(e -> e.getInvolvedObject().getName(), Event::getType, Event::getReason)
                    .containsExactlyInAnyOrder(
                            tuple("a", "Normal", "BindingSucceed"),
                            tuple("b", "Warning", "BindingFailed"),
                            tuple("c", "Warning", "BindingFailed"));
        }

        assertThat(Scrape.samples(registry, "hami_bind_duration_seconds_count"))
                .containsExactly(
                        "hami_bind_duration_seconds_count{result=\"bound\"} 1",
                        "hami_bind_duration_seconds_count{result=\"failed\"} 3");
        assertThat(Scrape.samples(registry, "hami_node_lock_acquire_duration_seconds_count"))
                .containsExactly(
                        "hami_node_lock_acquire_duration_seconds_count{outcome=\"acquired\"} 1",
                        "hami_node_lock_acquire_duration_seconds_count{outcome=\"contended\"} 1",
                        "hami_node_lock_acquire_duration_seconds_count{outcome=\"failed\"} 1");
        assertThat(Scrape.samples(registry, "hami_node_lock_contention_total"))
                .containsExactly("hami_node_lock_contention_total{node=\"n1\"} 1.0");
        assertThat(Scrape.samples(registry, "hami_node_lock_failures_total"))
                .containsExactly("hami_node_lock_failures_total{node=\"ghost\"} 1.0");
    }
}
