package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.grpc.StatusRuntimeException;
import io.hami.backend.hygon.HygonKeys;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.plugin.PluginApp;
import io.hami.plugin.PluginStartException;
import io.hami.plugin.testing.MockVendor;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.TestCluster;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.VendorKeys;
import io.hami.protocol.testing.Patience;
import io.hami.testing.prometheus.PromText;
import io.hami.testing.prometheus.PromText.Sample;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The plugin's {@code /metrics} over HTTP, read with Prometheus' own text parser, after real calls: the test
 * kubelet's Register, ListAndWatch and Allocate (one granted, one refused), a GPU lost in the NVML mock, a failed
 * and a written register patch, and an HCU plugin answering the handshake.
 */
class PluginMetricsTest {
    static final String RESOURCE = "nvidia.com/gpu";
    static final String GPU0 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";
    static final String GPU1 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000001";
    static final Duration WAIT = Patience.seconds(15);
    static final InetSocketAddress ANY_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    static final VendorKeys KEYS = DeviceBackends.load(DeviceConfig.DEFAULTS)
            .byVendor(NvidiaKeys.VENDOR)
            .orElseThrow()
            .keys();

    @RegisterExtension
    final PluginFixture node = new PluginFixture("n1");

    @Test
    void allocateRegistrationHealthListsAndRegisterWritesAreCountedByNameAndLabel() throws Exception {
        MockVendor mock = node.mock("nvidia");
        PluginApp plugin = node.start(node.settings("nvidia"), Optional.of(ANY_PORT));
        InetSocketAddress metrics = plugin.metricsAddress().orElseThrow();
        await().atMost(WAIT).until(() -> plugin.registerPatches() > 0);

        node.cluster().pod("granted", List.of(), List.of(TestCluster.container("main")));
        node.cluster().bind("granted", "n1", Map.of(KEYS, GPU0 + ",NVIDIA,3000,30:;"));
        node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-3"));
        // no node lock: the call cannot be for any pod
        assertThatThrownBy(() -> node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-4")))
                .isInstanceOf(StatusRuntimeException.class)
                .hasMessageContaining("FAILED_PRECONDITION");

        // a refused patch (403 is not retried by the client) is counted, and the loop writes on its retry
        int patches = plugin.registerPatches();
        node.cluster().server().faults().failNext("PATCH", "/api/v1/nodes/n1", 403, 1);
        mock.control("{\"lost\":[1]}");
        node.kubelet()
                .awaitList(
                        RESOURCE,
                        l -> l.getDevicesList().stream()
                                .anyMatch(d -> d.getHealth().equals("Unhealthy")),
                        WAIT);
        await().atMost(WAIT).until(() -> plugin.registerPatches() > patches);
        assertThat(node.cluster().server().faults().injectedCount()).isEqualTo(1);

        List<Sample> s = PromText.parse(scrape(metrics));
        assertThat(gpu(s, "hami_plugin_allocations_total", "outcome", "granted", "code", "OK"))
                .isEqualTo(1);
        assertThat(gpu(s, "hami_plugin_allocations_total", "outcome", "refused", "code", "FAILED_PRECONDITION"))
                .isEqualTo(1);
        for (String outcome : List.of("granted", "refused")) {
            String[] labels = {"outcome", outcome};
            assertThat(gpu(s, "hami_plugin_allocate_duration_seconds_count", labels))
                    .as(outcome)
                    .isEqualTo(1);
            assertThat(gpu(s, "hami_plugin_allocate_duration_seconds_bucket", "outcome", outcome, "le", "+Inf"))
                    .isEqualTo(1);
            assertThat(gpu(s, "hami_plugin_allocate_duration_seconds_sum", labels))
                    .isPositive();
        }
        assertThat(gpu(s, "hami_plugin_kubelet_registrations_total", "outcome", "accepted"))
                .isEqualTo(1);
        assertThat(gpu(s, "hami_plugin_device_healthy", "device_index", "0", "device_uuid", GPU0))
                .isEqualTo(1);
        assertThat(gpu(s, "hami_plugin_device_healthy", "device_index", "1", "device_uuid", GPU1))
                .isEqualTo(0);
        // the first list, then one per health change
        assertThat(gpu(s, "hami_plugin_list_and_watch_updates_total")).isGreaterThanOrEqualTo(2);
        String[] n1 = {"node", "n1", "backend", "nvidia"};
        assertThat(value(s, "hami_plugin_register_annotation_writes_total", n1, "outcome", "failed"))
                .isEqualTo(1);
        assertThat(value(s, "hami_plugin_register_annotation_writes_total", n1, "outcome", "written"))
                .isEqualTo(plugin.registerPatches());
        assertThat(s)
                .allSatisfy(sample ->
                        assertThat(sample.labels()).containsAllEntriesOf(Map.of("node", "n1", "backend", "nvidia")));

        mock.control("{}");
        await().atMost(WAIT)
                .until(() ->
                        gpu(PromText.parse(scrape(metrics)), "hami_plugin_device_healthy", "device_index", "1") == 1);
    }

    @Test
    void anHcuPluginCountsItsHandshakeAnswers() throws Exception {
        PluginApp plugin = node.start(node.settings("hygon"), Optional.of(ANY_PORT));
        InetSocketAddress metrics = plugin.metricsAddress().orElseThrow();

        node.cluster()
                .client()
                .nodes()
                .withName("n1")
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        AnnotationPatch.mergePatch(
                                Map.of(HygonKeys.HANDSHAKE, "Requesting_2026-08-21 10:00:00"), Map.of(), null));
        await().atMost(WAIT)
                .until(() ->
                        node.cluster().nodeAnnotation("n1", HygonKeys.HANDSHAKE).startsWith("Reported_"));

        await().atMost(WAIT)
                .until(() -> value(
                                PromText.parse(scrape(metrics)),
                                "hami_plugin_handshake_answers_total",
                                new String[] {"node", "n1", "backend", "hygon"},
                                "outcome",
                                "answered")
                        == 1);
    }

    @Test
    void withoutABindAddressNothingIsServedAndAPortInUseFailsTheStartClearly() throws Exception {
        PluginApp plugin = node.start("nvidia");
        assertThat(plugin.metricsAddress()).isEmpty();
        plugin.close();

        try (var taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            var bind = new InetSocketAddress(InetAddress.getLoopbackAddress(), taken.getLocalPort());
            assertThatThrownBy(() -> PluginApp.start(
                            node.cluster().client(), node.settings("nvidia"), Clock.systemUTC(), Optional.of(bind)))
                    .isInstanceOf(PluginStartException.class)
                    .hasMessageContaining("cannot serve metrics on")
                    .hasMessageContaining("--metrics-bind-address");
        }
        try (var sockets = Files.list(node.pluginDir())) {
            assertThat(sockets.map(p -> p.getFileName().toString())).containsOnly("kubelet.sock");
        }
    }

    /** The one sample of {@code name} of node n1's NVIDIA plugin, resource nvidia.com/gpu, with {@code more}. */
    private static double gpu(List<Sample> samples, String name, String... more) {
        return value(samples, name, new String[] {"node", "n1", "backend", "nvidia", "resource", RESOURCE}, more);
    }

    private static double value(List<Sample> samples, String name, String[] common, String... more) {
        String[] pairs = new String[common.length + more.length];
        System.arraycopy(common, 0, pairs, 0, common.length);
        System.arraycopy(more, 0, pairs, common.length, more.length);
        return PromText.value(samples, name, pairs);
    }

    private static String scrape(InetSocketAddress at) throws IOException, InterruptedException {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create("http://" + at.getHostString() + ":" + at.getPort() + "/metrics"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).isEqualTo(200);
            return r.body();
        }
    }
}
