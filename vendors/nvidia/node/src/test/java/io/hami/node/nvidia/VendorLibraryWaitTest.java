package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.kube.events.PodEvents;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.plugin.PluginProcess;
import io.hami.plugin.config.LibraryRetry;
import io.hami.plugin.kubeletapi.Device;
import io.hami.plugin.testing.MockVendor;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.TestKubelet;
import io.hami.protocol.codec.JsonRegisterCodec;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.testing.Patience;
import io.hami.protocol.testing.PatientTimeout;
import io.hami.testing.prometheus.PromText;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 26: {@code hami plugin} on a damaged vendor library stays up and says so (log, Warning event on its Node,
 * {@code hami_plugin_vendor_library_usable 0}, the cards of an earlier register annotation unhealthy, nothing
 * registered with the kubelet), and starts without a restart once the file is good again.
 */
@PatientTimeout(120)
class VendorLibraryWaitTest {
    private static final Duration WAIT = Patience.seconds(60);
    private static final String RESOURCE = "nvidia.com/gpu";
    /** Short waits, so that the test sees several attempts; one event per hour at most for the same cause. */
    private static final LibraryRetry FAST_RETRY =
            new LibraryRetry(Duration.ofMillis(100), Duration.ofMillis(400), Duration.ofHours(1));

    @RegisterExtension
    final PluginFixture node = new PluginFixture("n1");

    PluginProcess plugin;

    @AfterEach
    void stop() {
        if (plugin != null) {
            plugin.close();
        }
    }

    @Test
    void aDamagedLibraryIsReportedAndWaitedForThenTheDevicesAreServedWithoutARestart() throws Exception {
        // What an earlier run on a good library left: two healthy cards.
        String earlier = JsonRegisterCodec.encode(List.of(
                new DeviceInfo("GPU-old-0", 0, 10, 16384, 100, "NVIDIA-Tesla T4", 0, "hami-core", true),
                new DeviceInfo("GPU-old-1", 1, 10, 16384, 100, "NVIDIA-Tesla T4", 0, "hami-core", true)));
        node.cluster()
                .client()
                .nodes()
                .withName("n1")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        AnnotationPatch.mergePatch(Map.of(NvidiaKeys.REGISTER, earlier), Map.of(), null));
        MockVendor mock = node.mock("nvidia");
        Path library = mock.dir().resolve("libnvidia-ml.so.1");
        byte[] whole = Files.readAllBytes(library);
        Files.write(library, Arrays.copyOf(whole, 20 * 1024));
        TestKubelet kubelet = node.kubelet();

        plugin = PluginProcess.start(
                node.cluster().client(),
                node.settings("nvidia"),
                Clock.systemUTC(),
                Optional.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)),
                Optional.of(FAST_RETRY));

        assertThat(plugin.app()).isEmpty();
        InetSocketAddress metrics = plugin.metricsAddress().orElseThrow();
        await().atMost(WAIT).until(() -> warnings().size() == 1);
        Event warning = warnings().getFirst();
        assertThat(warning.getType()).isEqualTo("Warning");
        assertThat(warning.getMessage())
                .matches("the nvidia plugin cannot use its vendor library: NVML library "
                        + java.util.regex.Pattern.quote(library.toString())
                        + " is truncated: segment \\d+ ends at byte [\\d,]+ but the file has 20,480 bytes");
        assertThat(warning.getInvolvedObject().getName()).isEqualTo("n1");
        assertThat(warning.getInvolvedObject().getUid())
                .isEqualTo(node.cluster().getNode("n1").getMetadata().getUid());
        await().atMost(WAIT).until(() -> usable(metrics) == 0);
        List<DeviceInfo> withdrawn = JsonRegisterCodec.decode(earlier).stream()
                .map(c -> c.withHealth(false))
                .toList();
        await().atMost(WAIT)
                .until(
                        () -> JsonRegisterCodec.decode(node.cluster().nodeAnnotation("n1", NvidiaKeys.REGISTER)),
                        withdrawn::equals);

        // Several more attempts fail, and still one Warning: the same cause is not reported on every retry.
        int seen = plugin.failedAttempts();
        await().atMost(WAIT).until(() -> plugin.failedAttempts() >= seen + 3);
        assertThat(warnings()).hasSize(1);
        assertThat(plugin.app()).isEmpty();
        assertThat(kubelet.registrations()).isEmpty();
        try (var files = Files.list(node.pluginDir())) {
            assertThat(files.map(p -> p.getFileName().toString())).containsOnly("kubelet.sock");
        }

        // The driver is repaired: the file is replaced as a package manager replaces it.
        Path good = mock.dir().resolve("libnvidia-ml.so.1.new");
        Files.write(good, whole);
        Files.move(good, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        assertThat(plugin.awaitStarted(WAIT)).isTrue();
        assertThat(plugin.app().orElseThrow().awaitRegistered(WAIT)).isTrue();
        kubelet.awaitList(
                RESOURCE,
                l -> !l.getDevicesList().isEmpty()
                        && l.getDevicesList().stream().map(Device::getHealth).allMatch("Healthy"::equals),
                WAIT);
        await().atMost(WAIT)
                .until(
                        () -> JsonRegisterCodec.decode(node.cluster().nodeAnnotation("n1", NvidiaKeys.REGISTER)),
                        cards -> !cards.isEmpty()
                                && cards.stream().allMatch(DeviceInfo::health)
                                && cards.stream().noneMatch(c -> c.id().startsWith("GPU-old")));
        await().atMost(WAIT).until(() -> usable(metrics) == 1);
        await().atMost(WAIT).until(() -> events(PluginProcess.USABLE).size() == 1);
        assertThat(events(PluginProcess.USABLE).getFirst().getType()).isEqualTo("Normal");
        assertThat(warnings()).hasSize(1);

        plugin.close();
        plugin = null;
        try (var files = Files.list(node.pluginDir())) {
            assertThat(files.map(p -> p.getFileName().toString())).containsOnly("kubelet.sock");
        }
    }

    private List<Event> warnings() {
        return events(PluginProcess.UNUSABLE);
    }

    /** Events on Node n1 with {@code reason}, where the kubelet writes node events. */
    private List<Event> events(String reason) {
        return node
                .cluster()
                .client()
                .v1()
                .events()
                .inNamespace(PodEvents.NODE_EVENT_NAMESPACE)
                .list()
                .getItems()
                .stream()
                .filter(e -> "Node".equals(e.getInvolvedObject().getKind()))
                .filter(e -> "n1".equals(e.getInvolvedObject().getName()))
                .filter(e -> reason.equals(e.getReason()))
                .toList();
    }

    private static double usable(InetSocketAddress at) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://" + at.getHostString() + ":" + at.getPort() + "/metrics"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            return PromText.value(
                    PromText.parse(r.body()), "hami_plugin_vendor_library_usable", "node", "n1", "backend", "nvidia");
        }
    }
}
