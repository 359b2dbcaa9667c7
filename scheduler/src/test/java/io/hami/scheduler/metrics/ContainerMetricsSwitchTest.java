package io.hami.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.SchedulerFixture;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --container-metrics}: upstream's per-container series only when asked for; the per-device ones always. */
class ContainerMetricsSwitchTest {
    static final String DEVICE =
            "hami_gpu_memory_allocated_bytes{device_cores=\"100\",device_index=\"0\",device_type=\"NVIDIA-A100\","
                    + "device_uuid=\"G1\",node=\"n1\",zone=\"vGPU\"} 3.145728E9";

    /** The running scheduler's scrape over one node and one pod holding 3000 MiB of its GPU, with the switch as given. */
    static String scrapeWith(boolean containerMetrics) throws Exception {
        var registry = new PrometheusRegistry();
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient()) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("n1")
                            .addToAnnotations(
                                    "hami.io/node-nvidia-register",
                                    JsonRegisterCodec.encode(List.of(SchedulerFixture.gpu("G1", 0, 8000))))
                            .endMetadata()
                            .withNewStatus()
                            .addToAllocatable("nvidia.com/gpu", new Quantity("10"))
                            .endStatus()
                            .build())
                    .create();
            client.pods()
                    .inNamespace("ns")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withNamespace("ns")
                            .withName("p")
                            .addToAnnotations("hami.io/vgpu-devices-allocated", "G1,NVIDIA,3000,30:;")
                            .endMetadata()
                            .withNewSpec()
                            .withNodeName("n1")
                            .addNewContainer()
                            .withName("c")
                            .withImage("busybox")
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();
            var base = SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, Duration.ofMinutes(5));
            var settings = new SchedulerApp.Settings(
                    base.http(),
                    base.scheduling(),
                    base.replica(),
                    new SchedulerApp.Settings.Metrics(null, base.metrics().version(), containerMetrics));
            try (var _ = SchedulerApp.start(client, settings, registry, Clock.systemUTC())) {
                await().atMost(Patience.seconds(30))
                        .until(() -> Scrape.samples(registry, "hami_gpu_memory_allocated_bytes")
                                .contains(DEVICE));
                return Scrape.text(registry);
            }
        }
    }

    @Test
    void offByDefaultTheDeviceSeriesCountThePodButNoContainerSeriesAreServed() throws Exception {
        var base = SchedulerFixture.settings(SchedulingPolicy.UPSTREAM_DEFAULTS, Duration.ofMinutes(5));
        assertThat(base.metrics().containerMetrics()).as("the switch's default").isFalse();

        String text = scrapeWith(false);

        assertThat(text).contains(DEVICE).doesNotContain("hami_vgpu_");
    }

    @Test
    void onTheContainerSeriesCarryUpstreamsNamesAndLabels() throws Exception {
        String text = scrapeWith(true);

        String labels = "container_index=\"0\",device_uuid=\"G1\",namespace=\"ns\",node=\"n1\",pod=\"p\",zone=\"vGPU\"";
        assertThat(text.lines().filter(l -> l.startsWith("hami_vgpu_")))
                .containsExactlyInAnyOrder(
                        "hami_vgpu_memory_allocated_bytes{" + labels + "} 3.145728E9",
                        "hami_vgpu_core_allocated_ratio{" + labels + "} 30.0");
    }
}
