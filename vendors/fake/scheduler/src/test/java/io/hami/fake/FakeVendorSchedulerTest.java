package io.hami.fake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.leader.LeaderMode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The scheduler picks up the fake vendor's backend from its service file alone: over the extender's HTTP API, filter
 * finds the node whose capacity holds fake XPUs and bind writes the fake vendor's decision.
 */
class FakeVendorSchedulerTest {
    static final JsonMapper JSON = JsonMapper.builder().build();
    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void filterAndBindPlaceAPodOnFakeXpus() throws Exception {
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient();
                SchedulerApp app = SchedulerApp.start(
                        client,
                        new SchedulerApp.Settings(
                                new SchedulerApp.Settings.Http(new InetSocketAddress("127.0.0.1", 0)),
                                new SchedulerApp.Settings.Scheduling(
                                        "hami-scheduler",
                                        SchedulingPolicy.UPSTREAM_DEFAULTS,
                                        Duration.ofMinutes(5),
                                        DeviceConfig.DEFAULTS),
                                new SchedulerApp.Settings.Replica(new LeaderMode.Always(), Duration.ofHours(1)),
                                new SchedulerApp.Settings.Metrics(null, "test")),
                        new PrometheusRegistry(),
                        Clock.systemUTC())) {
            FakeNodes.createWithTwoXpus(client, "x1");
            Pod pod = client.pods()
                    .inNamespace("default")
                    .resource(new PodBuilder()
                            .withNewMetadata()
                            .withNamespace("default")
                            .withName("job")
                            .endMetadata()
                            .withNewSpec()
                            .withSchedulerName("hami-scheduler")
                            .withContainers(new ContainerBuilder()
                                    .withName("c")
                                    .withImage("busybox")
                                    .withNewResources()
                                    .withLimits(Map.of(
                                            FakeKeys.COUNT, new Quantity("1"), FakeKeys.MEMORY, new Quantity("4")))
                                    .endResources()
                                    .build())
                            .endSpec()
                            .build())
                    .create();
            String filter = "{\"Pod\":" + client.getKubernetesSerialization().asJson(pod)
                    + ",\"NodeNames\":[\"x1\",\"ghost\"]}";

            await().atMost(Patience.seconds(10))
                    .until(() -> post(app, "/filter", filter)
                            .get("NodeNames")
                            .toString()
                            .equals("[\"x1\"]"));
            assertThat(post(app, "/filter", filter).get("FailedNodes").propertyNames())
                    .containsExactly("ghost");

            JsonNode bind = post(app, "/bind", "{\"PodName\":\"job\",\"PodNamespace\":\"default\",\"Node\":\"x1\"}");
            assertThat(bind.get("Error").asString()).isEmpty();
            Map<String, String> annotations = client.pods()
                    .inNamespace("default")
                    .withName("job")
                    .get()
                    .getMetadata()
                    .getAnnotations();
            assertThat(annotations.get(FakeKeys.ALLOCATED)).matches("x1-fake-xpu-[01],FAKE,4096,100:;");
            assertThat(annotations.get(FakeKeys.TO_ALLOCATE)).isEqualTo(annotations.get(FakeKeys.ALLOCATED));
        }
    }

    private JsonNode post(SchedulerApp app, String path, String json) throws Exception {
        var request = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + app.address().getPort() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return JSON.readTree(
                http.send(request, HttpResponse.BodyHandlers.ofString()).body());
    }
}
