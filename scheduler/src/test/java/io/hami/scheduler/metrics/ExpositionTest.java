package io.hami.scheduler.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.health.HealthVerdict;
import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import io.hami.scheduler.usage.UsageIndex;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/** The server's body (device lines kept per node) against the client library writing the whole registry. */
class ExpositionTest {
    final PrometheusRegistry registry = new PrometheusRegistry();
    final SchedulerMetrics metrics = new SchedulerMetrics(registry, "1.2.3");
    final UsageIndex index = new UsageIndex();

    static DeviceInfo gpu(String id, int index, String type, int devmem) {
        return new DeviceInfo(id, index, 10, devmem, 100, type, 0, "hami-core", true);
    }

    /** Nodes of every shape the device families meet: several vendors, a UUID listed twice, no memory, odd label text. */
    void cluster(int nodes) {
        var rnd = new Random(7);
        for (int n = 0; n < nodes; n++) {
            String node = "node-" + n;
            var nvidia = new ArrayList<DeviceInfo>();
            for (int g = 0; g < 4; g++) {
                nvidia.add(gpu(node + "-G" + g, g, "NVIDIA-A100", 40_000 + g));
            }
            if (n % 5 == 0) {
                nvidia.add(gpu(node + "-G0", 9, "NVIDIA-A100", 1)); // listed again: dropped in both paths
            }
            var devices = n % 3 == 0
                    ? Map.of("NVIDIA", nvidia, "MLU", List.of(gpu(node + "-mlu", 0, "MLU \"370\" \\ x\ny", 0)))
                    : Map.<String, List<DeviceInfo>>of("NVIDIA", nvidia);
            index.putNode(node, Map.of(), devices, Map.of());
            metrics.verdict(
                    node,
                    "NVIDIA",
                    n % 2 == 0
                            ? HealthVerdict.NO_HANDSHAKE
                            : new HealthVerdict(
                                    false,
                                    false,
                                    java.util.Optional.empty(),
                                    io.hami.protocol.health.HealthMemory.NONE));
            for (int p = 0; p < 3; p++) {
                index.putPod(
                        "ns/" + node + "-" + p,
                        new PodUsage.Counted(
                                node,
                                Map.of(node + "-G" + rnd.nextInt(4), new Grant(1, rnd.nextInt(5000), rnd.nextInt(50))),
                                Map.of()));
            }
        }
        index.putPod("ns/broken", new PodUsage.Undecodable("node-1", "undecodable"));
        metrics.registerDeviceUsage(index);
    }

    String body(boolean openMetrics) {
        var out = new ByteArrayOutputStream();
        try {
            metrics.exposition().write(out, openMetrics);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    static String gunzip(byte[] gzip) throws IOException {
        try (var in = new GZIPInputStream(new ByteArrayInputStream(gzip))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    String clientOpenMetrics() throws IOException {
        var out = new ByteArrayOutputStream();
        OpenMetricsTextFormatWriter.create().write(out, registry.scrape());
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The value of the one sample line that starts with {@code series}. */
    static double value(String body, String series) {
        List<String> lines = body.lines().filter(l -> l.startsWith(series)).toList();
        assertThat(lines).hasSize(1);
        return Double.parseDouble(lines.getFirst().substring(series.length()));
    }

    /** Lines sorted: the families and series are the same; the order of series within a family is not. */
    static List<String> sorted(String body) {
        return body.lines().sorted().toList();
    }

    @Test
    void theBodyHasTheLinesTheClientLibraryWritesForTheWholeRegistry() throws IOException {
        cluster(40);

        String text = body(false);

        assertThat(sorted(text)).isEqualTo(sorted(Scrape.text(registry)));
        assertThat(text)
                .contains("device_type=\"MLU \\\"370\\\" \\\\ x\\ny\"")
                .contains("hami_undecodable_allocation_pods{node=\"node-1\"} 1.0");
        String openMetrics = body(true);
        assertThat(sorted(openMetrics)).isEqualTo(sorted(clientOpenMetrics()));
        assertThat(openMetrics).endsWith("# EOF\n");
    }

    @Test
    void eachFamilysSamplesFollowItsMetadataWithoutAnotherFamilyBetween() {
        cluster(10);

        String current = null;
        var seen = new ArrayList<String>();
        for (String line : body(false).lines().toList()) {
            if (line.startsWith("# TYPE ")) {
                current = line.split(" ", -1)[2];
                assertThat(seen).doesNotContain(current);
                seen.add(current);
            } else if (!line.startsWith("#")) {
                assertThat(line.startsWith(current + "{")
                                || line.startsWith(current + "_")
                                || line.startsWith(current + " "))
                        .as(line)
                        .isTrue();
            }
        }
        assertThat(seen).containsAll(DeviceSeries.NAMES);
    }

    @Test
    void gzipBodyIsTheTextBodyCompressed() throws IOException {
        cluster(40);

        assertThat(gunzip(metrics.exposition().gzip(false))).isEqualTo(body(false));
        assertThat(gunzip(metrics.exposition().gzip(true))).isEqualTo(body(true));
        // the second time from the kept segments
        assertThat(gunzip(metrics.exposition().gzip(false))).isEqualTo(body(false));
    }

    @Test
    void aChangeOfOneNodesUsageShowsInTheNextScrape() throws IOException {
        cluster(5);
        metrics.exposition().gzip(false);
        String shared =
                "hami_gpu_shared_count{device_index=\"2\",device_type=\"NVIDIA-A100\",device_uuid=\"node-3-G2\",node=\"node-3\",zone=\"vGPU\"} ";
        double before = value(body(false), shared);

        index.putPod("ns/new", new PodUsage.Counted("node-3", Map.of("node-3-G2", new Grant(2, 100, 5)), Map.of()));

        assertThat(value(gunzip(metrics.exposition().gzip(false)), shared)).isEqualTo(before + 2);
        assertThat(value(body(false), shared)).isEqualTo(before + 2);
        assertThat(sorted(body(false))).isEqualTo(sorted(Scrape.text(registry)));

        index.removePod("ns/new");

        assertThat(value(body(false), shared)).isEqualTo(before);
        assertThat(value(gunzip(metrics.exposition().gzip(true)), shared)).isEqualTo(before);
    }

    @Test
    void aChangedInventoryAndARemovedNodeShowInTheNextScrape() throws IOException {
        cluster(5);
        assertThat(body(false)).contains("device_uuid=\"node-4-G0\"").contains("device_uuid=\"node-2-G3\"");

        index.removeNode("node-4");
        index.putNode(
                "node-2", Map.of(), Map.of("NVIDIA", List.of(gpu("node-2-NEW", 0, "NVIDIA-H100", 80_000))), Map.of());

        String text = gunzip(metrics.exposition().gzip(false));
        assertThat(text)
                .doesNotContain("device_uuid=\"node-4-")
                .doesNotContain("device_uuid=\"node-2-G3\"")
                .contains(
                        "hami_gpu_memory_limit_bytes{device_index=\"0\",device_type=\"NVIDIA-H100\",device_uuid=\"node-2-NEW\",node=\"node-2\",zone=\"vGPU\"} 8.388608E10");
        metrics.forgetNode("node-4");
        assertThat(sorted(body(false))).isEqualTo(sorted(Scrape.text(registry)));
    }

    @Test
    void theServerNegotiatesOpenMetricsAndGzipAsPrometheusAsks() throws Exception {
        cluster(20);
        try (var server = MetricsServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), metrics.exposition());
                var http = HttpClient.newHttpClient()) {
            URI uri = URI.create("http://127.0.0.1:" + server.address().getPort() + "/metrics");
            var request = HttpRequest.newBuilder(uri)
                    .header("Accept-Encoding", "gzip")
                    .header(
                            "Accept",
                            "application/openmetrics-text;version=1.0.0;q=0.5,text/plain;version=0.0.4;q=0.3,*/*;q=0.2")
                    .build();

            var gz = http.send(request, HttpResponse.BodyHandlers.ofByteArray());

            assertThat(gz.statusCode()).isEqualTo(200);
            assertThat(gz.headers().firstValue("Content-Encoding")).hasValue("gzip");
            assertThat(gz.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("application/openmetrics-text"));
            assertThat(sorted(gunzip(gz.body()))).isEqualTo(sorted(clientOpenMetrics()));

            var plain = http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
            assertThat(plain.headers().firstValue("Content-Type"))
                    .hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
            assertThat(sorted(plain.body())).isEqualTo(sorted(Scrape.text(registry)));

            // a name filter goes to the client library's handler over the whole registry
            var filtered = http.send(
                    HttpRequest.newBuilder(URI.create(uri + "?name[]=hami_gpu_shared_count"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            // 4 GPUs a node and an MLU on every third one
            assertThat(filtered.body().lines().filter(l -> !l.startsWith("#")))
                    .hasSize(20 * 4 + 7)
                    .allMatch(l -> l.startsWith("hami_gpu_shared_count{"));
        }
    }
}
