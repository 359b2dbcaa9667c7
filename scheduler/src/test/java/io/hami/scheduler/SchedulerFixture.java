package io.hami.scheduler;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.codec.LegacyRegisterCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.Patience;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A running scheduler against the embedded API server, with helpers to make nodes and pods and call it. */
public final class SchedulerFixture implements AutoCloseable {
    public final EmbeddedApiServer server;
    public final KubernetesClient client;
    public final SchedulerApp app;
    private final HttpClient http = HttpClient.newHttpClient();

    public SchedulerFixture(SchedulingPolicy policy) throws Exception {
        this(settings(policy, Duration.ofMinutes(5)));
    }

    public SchedulerFixture(SchedulerApp.Settings settings) throws Exception {
        server = EmbeddedApiServer.start();
        client = server.newClient();
        app = SchedulerApp.start(client, settings, new PrometheusRegistry(), Clock.systemUTC());
    }

    public static SchedulerApp.Settings settings(SchedulingPolicy policy, Duration lockTimeout) {
        return new SchedulerApp.Settings(
                new SchedulerApp.Settings.Http(new InetSocketAddress("127.0.0.1", 0)),
                new SchedulerApp.Settings.Scheduling("hami-scheduler", policy, lockTimeout, DeviceConfig.DEFAULTS),
                new SchedulerApp.Settings.Replica(new LeaderMode.Always(), Duration.ofHours(1)),
                new SchedulerApp.Settings.Metrics(null, "test"));
    }

    public static DeviceInfo gpu(String id, int index, int memMiB) {
        return new DeviceInfo(id, index, 10, memMiB, 100, "NVIDIA-A100", 0, "hami-core", true);
    }

    public Node nvidiaNode(String name, DeviceInfo... gpus) {
        var node = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToAnnotations("hami.io/node-nvidia-register", JsonRegisterCodec.encode(List.of(gpus)))
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity(String.valueOf(gpus.length * 10)))
                .endStatus()
                .build();
        return client.nodes().resource(node).create();
    }

    public Node hcuNode(String name, DeviceInfo... hcus) {
        var node = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToAnnotations("hami.io/node-hcu-register", LegacyRegisterCodec.encode(List.of(hcus)))
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("hygon.com/hcunum", new Quantity(String.valueOf(hcus.length * 10)))
                .endStatus()
                .build();
        return client.nodes().resource(node).create();
    }

    public Node mluNode(String name, int cards, int memUnitsPerCard) {
        var node = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .addToCapacity("cambricon.com/mlu.smlu.vcore", new Quantity(String.valueOf(cards * 100)))
                .addToCapacity("cambricon.com/mlu.smlu.vmemory", new Quantity(String.valueOf(cards * memUnitsPerCard)))
                .endStatus()
                .build();
        return client.nodes().resource(node).create();
    }

    public Node mthreadsNode(String name, int gpus) {
        var node = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .addToCapacity("mthreads.com/sgpu-core", new Quantity(String.valueOf(gpus * 16)))
                .addToCapacity("mthreads.com/sgpu-memory", new Quantity(String.valueOf(gpus * 96)))
                .endStatus()
                .build();
        return client.nodes().resource(node).create();
    }

    /** A node with NVIDIA GPUs and Hygon HCUs side by side. */
    public Node mixedNode(String name, DeviceInfo gpu, DeviceInfo hcu) {
        var node = new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToAnnotations("hami.io/node-nvidia-register", JsonRegisterCodec.encode(List.of(gpu)))
                .addToAnnotations("hami.io/node-hcu-register", LegacyRegisterCodec.encode(List.of(hcu)))
                .endMetadata()
                .withNewStatus()
                .addToAllocatable("nvidia.com/gpu", new Quantity("10"))
                .addToAllocatable("hygon.com/hcunum", new Quantity("10"))
                .endStatus()
                .build();
        return client.nodes().resource(node).create();
    }

    public void awaitNodes(String... names) {
        await().atMost(Patience.seconds(30)).until(() -> app.index().nodeNames().containsAll(List.of(names)));
    }

    public static Container container(String name, String... resources) {
        var limits = new LinkedHashMap<String, Quantity>();
        for (int i = 0; i < resources.length; i += 2) {
            limits.put(resources[i], new Quantity(resources[i + 1]));
        }
        return new ContainerBuilder()
                .withName(name)
                .withImage("busybox")
                .withNewResources()
                .withLimits(limits)
                .endResources()
                .build();
    }

    public Pod pod(String name, Container... containers) {
        var pod = new PodBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withSchedulerName("hami-scheduler")
                .withContainers(containers)
                .endSpec()
                .build();
        return client.pods().inNamespace("default").resource(pod).create();
    }

    public Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    /** POSTs {@code json} to the scheduler and returns status and body. */
    public HttpResponse<String> post(String path, String json) throws Exception {
        var req = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + app.address().getPort() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build();
        return http.send(req, HttpResponse.BodyHandlers.ofString());
    }

    public HttpResponse<String> getPath(String path) throws Exception {
        var req = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + app.address().getPort() + path))
                .GET()
                .build();
        return http.send(req, HttpResponse.BodyHandlers.ofString());
    }

    public String podJson(Pod pod) {
        return client.getKubernetesSerialization().asJson(pod);
    }

    public static String names(String... nodes) {
        var quoted = new ArrayList<String>();
        for (String n : nodes) {
            quoted.add("\"" + n + "\"");
        }
        return "[" + String.join(",", quoted) + "]";
    }

    public Map<String, String> annotations(String pod) {
        return get(pod).getMetadata().getAnnotations();
    }

    @Override
    public void close() {
        app.close();
        client.close();
        server.close();
    }
}
