package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.deploy.image.ImageRun;
import io.hami.deploy.image.OciImage;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.plugin.kubeletapi.RegisterRequest;
import io.hami.plugin.testing.TestKubelet;
import io.hami.protocol.testing.Patience;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The NVIDIA device plugin image started as its DaemonSet starts it, from the image's own read-only root
 * filesystem: NVML is the C mock (with the cJSON it links) mounted where the NVIDIA container runtime puts the
 * driver's {@code libnvidia-ml.so.1}, the kubelet's registration socket folder is mounted at
 * {@code /var/lib/kubelet/device-plugins} with a kubelet's Registration service behind it ({@code TestKubelet}),
 * the device config is the manifests' ConfigMap, the API server the embedded one on localhost. The plugin
 * registers, lists the mock's devices and publishes its register annotation on the node.
 */
class PluginImageTest {
    private static final Path MOCK = Manifests.MODULE.resolve("../hardware-mocks/target/native/nvidia");
    private static final Path REPOSITORY = Manifests.MODULE.getParent();
    private static final String NODE = "gpu-1";
    private static final String LIBS = "/usr/lib/x86_64-linux-gnu/";

    @TempDir
    Path dir;

    @Test
    void theNvidiaPluginImageRegistersWithTheKubeletAndPublishesItsDevices() throws Exception {
        assumeTrue(
                Files.exists(OciImage.archive(REPOSITORY, "device-plugin-nvidia")),
                "the images are built by the deploy module's build; -Dimages.skip skips them");
        assertThat(MOCK.resolve("libnvidia-ml.so.1"))
                .as("the NVML mock (hardware-mocks)")
                .exists();
        OciImage image = OciImage.unpack(OciImage.archive(REPOSITORY, "device-plugin-nvidia"), dir.resolve("image"));
        var manifests = Manifests.load();
        JsonNode daemonSet = manifests.get("DaemonSet", "hami-device-plugin-nvidia");
        JsonNode container = Manifests.container(daemonSet, "device-plugin");

        Path config = Files.createDirectories(dir.resolve("config"));
        Files.writeString(
                config.resolve("device-config.yaml"),
                manifests
                        .get("ConfigMap", "hami-device-config")
                        .path("data")
                        .path("device-config.yaml")
                        .asString(),
                StandardCharsets.UTF_8);
        Path mock = Files.createDirectories(dir.resolve("mock"));
        Files.copy(MOCK.resolve("devices.json"), mock.resolve("devices.json"));
        Path dp = Files.createDirectories(dir.resolve("device-plugins"));

        try (EmbeddedApiServer server = EmbeddedApiServer.start();
                KubernetesClient client = server.newClient();
                TestKubelet kubelet = new TestKubelet(dp).start()) {
            client.nodes()
                    .resource(new NodeBuilder()
                            .withNewMetadata()
                            .withName(NODE)
                            .endMetadata()
                            .build())
                    .create();
            Path kube = Files.createDirectories(dir.resolve("kube"));
            server.writeKubeconfig(kube.resolve("kubeconfig"));

            var binds = new LinkedHashMap<Path, String>();
            binds.put(dp, "/var/lib/kubelet/device-plugins");
            binds.put(MOCK.resolve("libnvidia-ml.so.1").toRealPath(), LIBS + "libnvidia-ml.so.1");
            // The mock's own dependency; a real libnvidia-ml.so.1 links only glibc.
            binds.put(Path.of(LIBS, "libcjson.so.1").toRealPath(), LIBS + "libcjson.so.1");
            binds.put(mock, "/run/hami-mock");
            binds.put(config, "/etc/hami/config");
            binds.put(kube, "/etc/hami/kube");
            binds.put(Files.createDirectories(dir.resolve("tmp")), "/tmp");
            binds.put(Files.createDirectories(dir.resolve("vgpu")), "/usr/local/vgpu");
            var env = new LinkedHashMap<String, String>();
            for (JsonNode e : container.path("env")) {
                if (e.has("value")) {
                    env.put(e.path("name").asString(), e.path("value").asString());
                }
            }
            env.put("NODE_NAME", NODE); // the downward API's spec.nodeName
            env.put("HAMI_MOCK_DEVICES", "/run/hami-mock/devices.json");
            var command = new ArrayList<>(image.entrypoint());
            container.path("args").valueStream().map(JsonNode::asString).forEach(command::add);
            // In a cluster: the ServiceAccount's in-cluster config and :9396.
            command.addAll(List.of("--kubeconfig", "/etc/hami/kube/kubeconfig", "--metrics-bind-address=127.0.0.1:0"));

            Path log = dir.resolve("plugin.log");
            Process plugin = new ProcessBuilder(ImageRun.command(image, image.user(), true, binds, env, command))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                await().atMost(Patience.seconds(120))
                        .pollInterval(Duration.ofMillis(200))
                        .failFast("the plugin exited: " + log, () -> !plugin.isAlive())
                        .until(() -> kubelet.registrations().stream()
                                        .map(RegisterRequest::getResourceName)
                                        .anyMatch("nvidia.com/gpu"::equals)
                                && annotation(client, "hami.io/node-nvidia-register") != null);
                var list = kubelet.awaitList("nvidia.com/gpu", l -> l.getDevicesCount() > 0, Duration.ofSeconds(30));
                assertThat(list.getDevicesCount()).isPositive();
                assertThat(annotation(client, "hami.io/node-nvidia-register")).contains("GPU-");
                assertThat(Files.readString(log, StandardCharsets.UTF_8)).doesNotContain("[aot]");
            } finally {
                plugin.destroy();
                if (!plugin.waitFor(30, TimeUnit.SECONDS)) {
                    plugin.destroyForcibly().waitFor();
                }
            }
        }
    }

    private static String annotation(KubernetesClient client, String key) {
        var node = client.nodes().withName(NODE).get();
        Map<String, String> annotations = node.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(key);
    }
}
