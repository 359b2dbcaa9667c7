package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.LegacyRegisterCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.Patience;
import io.hami.scheduler.SchedulerApp;
import io.hami.scheduler.extender.SchedulingPolicy;
import io.hami.scheduler.leader.LeaderMode;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One run of the whole scheduler ({@link SchedulerApp}: informers, leader election, handshake loop, filter, bind
 * with the node lock, events, metrics) against the embedded API server, with the settings of the manifests'
 * scheduler container and a client that records every request. Run once per test JVM, on first use.
 */
final class SchedulerRun {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String WORKLOAD_NAMESPACE = "team-a";
    private static SchedulerRun done;

    final List<ApiAccess> accesses;
    final List<String> nonResourceRequests;
    /** The scheduler's metrics after the run. */
    final MetricSnapshots metrics;

    private SchedulerRun(List<ApiAccess> accesses, List<String> nonResourceRequests, MetricSnapshots metrics) {
        this.accesses = accesses;
        this.nonResourceRequests = nonResourceRequests;
        this.metrics = metrics;
    }

    static synchronized SchedulerRun get() throws Exception {
        if (done == null) {
            done = run(Manifests.load());
        }
        return done;
    }

    private static SchedulerRun run(Manifests manifests) throws Exception {
        JsonNode deployment = manifests.get("Deployment", "hami-scheduler");
        JsonNode container = Manifests.container(deployment, "scheduler");
        String schedulerName = Manifests.flag(container, "--scheduler-name").orElseThrow();
        String leaseName = Manifests.flag(container, "--leader-follow").orElseThrow();
        String namespace = Manifests.namespace(deployment);
        // with --container-metrics, so that every documented metric is served
        var settings = new SchedulerApp.Settings(
                new SchedulerApp.Settings.Http(new InetSocketAddress("127.0.0.1", 0)),
                new SchedulerApp.Settings.Scheduling(
                        schedulerName,
                        new SchedulingPolicy(
                                Manifests.flag(container, "--node-scheduler-policy")
                                        .orElseThrow(),
                                Manifests.flag(container, "--gpu-scheduler-policy")
                                        .orElseThrow()),
                        Duration.ofMinutes(5),
                        DeviceConfig.DEFAULTS),
                new SchedulerApp.Settings.Replica(
                        new LeaderMode.Follow(namespace, leaseName, "rbac-test"), Duration.ofMillis(200)),
                new SchedulerApp.Settings.Metrics(null, "test", true));
        var recorder = new RecordingClient();
        var registry = new PrometheusRegistry();
        MetricSnapshots scraped;
        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient admin = server.newClient()) {
            admin.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("gpu-1")
                            .addToAnnotations(
                                    "hami.io/node-nvidia-register",
                                    JsonRegisterCodec.encode(List.of(new DeviceInfo(
                                            "GPU-0", 0, 10, 16384, 100, "NVIDIA-A100", 0, "hami-core", true))))
                            .endMetadata()
                            .withNewStatus()
                            .addToAllocatable("nvidia.com/gpu", new Quantity("10"))
                            .endStatus()
                            .build())
                    .create();
            admin.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName("hcu-1")
                            .addToAnnotations(
                                    "hami.io/node-hcu-register",
                                    LegacyRegisterCodec.encode(List.of(new DeviceInfo(
                                            "HCU-0", 0, 4, 16384, 100, "HCU-Z100", 0, "hami-core", true))))
                            .endMetadata()
                            .withNewStatus()
                            .addToAllocatable("hygon.com/hcunum", new Quantity("4"))
                            .endStatus()
                            .build())
                    .create();
            admin.namespaces()
                    .resource(new NamespaceBuilder()
                            .withNewMetadata()
                            .withName(WORKLOAD_NAMESPACE)
                            .endMetadata()
                            .build())
                    .create();
            // What the kube-scheduler of this pod would hold; an hour, so that it outlasts the run.
            admin.resources(Lease.class)
                    .inNamespace(namespace)
                    .resource(new LeaseBuilder()
                            .withNewMetadata()
                            .withName(leaseName)
                            .withNamespace(namespace)
                            .endMetadata()
                            .withNewSpec()
                            .withHolderIdentity("rbac-test_5e0c")
                            .withLeaseDurationSeconds(3600)
                            .withRenewTime(ZonedDateTime.now())
                            .endSpec()
                            .build())
                    .create();
            // a quota the pods stay within, so that the quota informer and gauges take part
            admin.resourceQuotas()
                    .inNamespace(WORKLOAD_NAMESPACE)
                    .resource(new ResourceQuotaBuilder()
                            .withNewMetadata()
                            .withName("devices")
                            .withNamespace(WORKLOAD_NAMESPACE)
                            .endMetadata()
                            .withNewSpec()
                            .addToHard("limits.nvidia.com/gpumem", new Quantity("100000"))
                            .endSpec()
                            .build())
                    .create();
            Pod fits = admin.pods()
                    .inNamespace(WORKLOAD_NAMESPACE)
                    .resource(pod("fits", schedulerName, "4000"))
                    .create();
            Pod tooBig = admin.pods()
                    .inNamespace(WORKLOAD_NAMESPACE)
                    .resource(pod("too-big", schedulerName, "64000"))
                    .create();
            // No devices: its bind reads the pod from the API server (a device pod's comes from the informer).
            Pod plain = admin.pods()
                    .inNamespace(WORKLOAD_NAMESPACE)
                    .resource(new PodBuilder(pod("plain", schedulerName, "1"))
                            .editSpec()
                            .editFirstContainer()
                            .withNewResources()
                            .endResources()
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();

            try (KubernetesClient recorded = recorder.connect(server);
                    SchedulerApp app = SchedulerApp.start(recorded, settings, registry, Clock.systemUTC())) {
                await().atMost(Patience.seconds(30)).until(app::isLeader);
                // The handshake loop asks both vendors with a handshake key for an answer.
                await().atMost(Patience.seconds(10))
                        .until(() -> List.of("gpu-1", "hcu-1").stream()
                                .allMatch(n ->
                                        admin.nodes().withName(n).get().getMetadata().getAnnotations().keySet().stream()
                                                .anyMatch(k -> k.startsWith("hami.io/node-handshake"))));

                var http = HttpClient.newHttpClient();
                String base = "http://127.0.0.1:" + app.address().getPort();
                for (Pod pod : List.of(fits, tooBig)) {
                    String podJson = admin.getKubernetesSerialization().asJson(pod);
                    post(http, base + "/filter", "{\"Pod\":" + podJson + ",\"NodeNames\":[\"gpu-1\",\"hcu-1\"]}");
                }
                JsonNode bound = post(http, base + "/bind", bindArgs(fits, "gpu-1"));
                assertThat(bound.path("Error").asString())
                        .as("bind of a pod that fits")
                        .isEmpty();
                JsonNode refused = post(http, base + "/bind", bindArgs(tooBig, "gpu-1"));
                assertThat(refused.path("Error").asString())
                        .as("bind of a pod that does not fit")
                        .isNotEmpty();
                assertThat(post(http, base + "/bind", bindArgs(plain, "gpu-1"))
                                .path("Error")
                                .asString())
                        .as("bind of a pod without devices")
                        .isEmpty();
                // Events are written in the background: FilteringSucceed, FilteringFailed, BindingSucceed,
                // BindingFailed.
                await().atMost(Patience.seconds(10))
                        .until(() -> admin.v1().events().inNamespace(WORKLOAD_NAMESPACE).list().getItems().stream()
                                        .map(e -> e.getReason())
                                        .distinct()
                                        .count()
                                == 4);
                // While the scheduler runs: its device gauges read the live usage index.
                scraped = registry.scrape();
            }
        }
        return new SchedulerRun(recorder.accesses(), recorder.nonResourceRequests(), scraped);
    }

    private static Pod pod(String name, String schedulerName, String memory) {
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(WORKLOAD_NAMESPACE)
                .endMetadata()
                .withNewSpec()
                .withSchedulerName(schedulerName)
                .withContainers(new ContainerBuilder()
                        .withName("main")
                        .withImage("busybox")
                        .withNewResources()
                        .withLimits(
                                Map.of("nvidia.com/gpu", new Quantity("1"), "nvidia.com/gpumem", new Quantity(memory)))
                        .endResources()
                        .build())
                .endSpec()
                .build();
    }

    private static String bindArgs(Pod pod, String node) {
        return "{\"PodName\":\"" + pod.getMetadata().getName() + "\",\"PodNamespace\":\""
                + pod.getMetadata().getNamespace() + "\",\"PodUID\":\""
                + pod.getMetadata().getUid() + "\",\"Node\":\"" + node + "\"}";
    }

    private static JsonNode post(HttpClient http, String url, String body) throws Exception {
        var response = http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as(url + " answered " + response.body())
                .isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
