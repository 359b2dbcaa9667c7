package io.hami.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.hami.kube.http.RequestLimits;
import io.hami.lab.apiserver.EmbeddedApiServer;
import io.hami.monitor.metrics.HostGpus;
import io.hami.nativebind.hamicore.Control;
import io.hami.nativebind.hamicore.RegionRead;
import io.hami.nativebind.hamicore.SharedRegionFiles;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.testing.Patience;
import io.hami.testing.prometheus.PromText;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service on real region files written by {@code hami-workload}, the mock NVML and the embedded API server:
 * {@code /metrics} over HTTP, unusable files counted once, the priority feedback written back, and the folder of a
 * gone pod removed after the grace period while a recent one stays.
 */
class MonitorServiceTest {
    static final String NODE = "node-a";
    static final String GPU0 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";
    static final String GPU1 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000001";
    static final long MIB = 1 << 20;

    @TempDir
    Path hook;

    @TempDir
    Path nvidia;

    EmbeddedApiServer server;
    KubernetesClient client;
    MonitorService service;

    @BeforeEach
    void start() throws IOException {
        server = EmbeddedApiServer.start();
        client = server.newClient();
        // A node of its own: a copy of the mock NVML next to a device file (hardware-mocks README, rule 2).
        Files.copy(Workload.mocksDir().resolve("nvidia/libnvidia-ml.so.1"), nvidia.resolve("libnvidia-ml.so.1"));
        Files.writeString(nvidia.resolve("devices.json"), """
                {"devices": [
                  {"uuid": "%s", "name": "NVIDIA A100-SXM4-40GB", "memoryMiB": 40960, "usedMiB": 1234,
                   "utilization": 35, "memoryUtilization": 12, "pciBusId": "00000000:07:00.0", "minor": 0},
                  {"uuid": "%s", "name": "NVIDIA A100-SXM4-40GB", "memoryMiB": 40960, "usedMiB": 0,
                   "pciBusId": "00000000:0F:00.0", "minor": 1}
                ]}
                """.formatted(GPU0, GPU1));
    }

    @AfterEach
    void stop() {
        if (service != null) {
            service.close();
        }
        client.close();
        server.close();
    }

    Pod pod(String name, String node) {
        return client.pods()
                .resource(new PodBuilder()
                        .withNewMetadata()
                        .withNamespace("ns")
                        .withName(name)
                        .addToLabels(ProtocolKeys.VGPU_NODE, node)
                        .endMetadata()
                        .withNewSpec()
                        .addNewContainer()
                        .withName("main")
                        .withImage("x")
                        .endContainer()
                        .endSpec()
                        .build())
                .create();
    }

    static Path cache(Path hook, Pod pod, String container) {
        return hook.resolve("containers/" + pod.getMetadata().getUid() + "_" + container + "/region.cache");
    }

    List<PromText.Sample> scrape() throws IOException, InterruptedException {
        try (var http = HttpClient.newHttpClient()) {
            var response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + service.metricsPort() + "/metrics"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            return PromText.parse(response.body());
        }
    }

    static Control control(Path file) {
        return switch (SharedRegionFiles.read(file)) {
            case RegionRead.Read r -> r.region().control();
            case RegionRead.Skipped s -> throw new AssertionError("unreadable " + file + ": " + s.reason());
        };
    }

    MonitorSettings settings() {
        return new MonitorSettings(
                hook,
                NODE,
                Duration.ofMinutes(1),
                Duration.ofMillis(100),
                new InetSocketAddress("127.0.0.1", 0),
                true,
                nvidia.resolve("libnvidia-ml.so.1"),
                "1.2.3");
    }

    @Test
    void servesUpstreamsMetricsFromRealRegionFiles() throws Exception {
        Pod high = pod("high", NODE);
        Pod low = pod("low", NODE);
        Workload.once(
                cache(hook, high, "main"),
                "--format-version",
                "1",
                "--device",
                GPU0 + ":4096:50",
                "--priority",
                "0",
                "--used-mib",
                "100",
                "--sm-util",
                "30");
        Workload.once(
                cache(hook, low, "main"),
                "--format-version",
                "0",
                "--device",
                GPU0 + ":2048:25",
                "--device",
                GPU1 + ":1024:25",
                "--priority",
                "1",
                "--processes",
                "2",
                "--used-mib",
                "64",
                "--sm-util",
                "10");
        Path corrupt = hook.resolve("containers/" + low.getMetadata().getUid() + "_side/bad.cache");
        Files.createDirectories(corrupt.getParent());
        Files.write(corrupt, new byte[] {1, 2, 3, 4});

        service = MonitorService.start(settings(), client);

        await().atMost(Patience.seconds(30))
                .until(() ->
                        !PromText.find(scrape(), "hami_vgpu_memory_used_bytes").isEmpty());
        service.scanNow(); // two more scans: the bad file is still counted once
        service.scanNow();
        List<PromText.Sample> samples = scrape();

        String[] highDevice = {"namespace", "ns", "pod", "high", "container", "main", "vdevice_index", "0"};
        assertThat(PromText.value(samples, "hami_vgpu_memory_used_bytes", highDevice))
                .isEqualTo(100.0 * MIB);
        assertThat(PromText.value(samples, "hami_vgpu_memory_limit_bytes", highDevice))
                .isEqualTo(4096.0 * MIB);
        assertThat(PromText.value(samples, "hami_container_device_utilization_ratio", highDevice))
                .isEqualTo(30.0);
        assertThat(PromText.find(samples, "hami_vgpu_memory_used_bytes", highDevice))
                .singleElement()
                .satisfies(s -> assertThat(s.labels())
                        .containsEntry("device_uuid", GPU0)
                        .containsEntry("zone", "vGPU"));
        assertThat(PromText.value(samples, "hami_vgpu_memory_context_bytes", highDevice))
                .isEqualTo(100.0 * MIB / 8);
        assertThat(PromText.find(samples, "hami_container_last_kernel_elapsed_seconds", highDevice))
                .hasSize(1);
        // Two processes of 64 MiB on each of the low pod's two devices.
        String[] lowSecond = {"pod", "low", "vdevice_index", "1", "device_uuid", GPU1};
        assertThat(PromText.value(samples, "hami_vgpu_memory_used_bytes", lowSecond))
                .isEqualTo(128.0 * MIB);
        assertThat(PromText.value(samples, "hami_container_device_utilization_ratio", lowSecond))
                .isEqualTo(20.0);
        assertThat(PromText.value(samples, "vGPU_device_memory_limit_in_bytes", "podname", "low", "vdeviceid", "1"))
                .isEqualTo(1024.0 * MIB);

        String[] host = {
            "node", NODE, "device_index", "0", "device_uuid", GPU0, "device_type", "NVIDIA-NVIDIA A100-SXM4-40GB"
        };
        assertThat(PromText.value(samples, "hami_host_gpu_memory_used_bytes", host))
                .isEqualTo(1234.0 * MIB);
        assertThat(PromText.value(samples, "HostGPUMemoryUsage", "nodeid", NODE, "deviceidx", "1"))
                .isZero();
        assertThat(PromText.value(samples, "hami_host_gpu_utilization_ratio", host))
                .isEqualTo(35.0);
        assertThat(PromText.value(samples, "hami_host_gpu_memory_controller_utilization_ratio", host))
                .isEqualTo(12.0);
        assertThat(PromText.value(samples, "HostCoreUtilization", "nodeid", NODE, "deviceidx", "0", "zone", "vGPU"))
                .isEqualTo(35.0);
        assertThat(PromText.value(samples, "hami_host_gpu_utilization_ratio", "device_index", "1"))
                .isZero();
        assertThat(PromText.value(samples, "hami_build_info", "version", "1.2.3"))
                .isEqualTo(1.0);

        assertThat(PromText.find(samples, "hami_monitor_region_skipped_total"))
                .singleElement()
                .satisfies(s -> {
                    assertThat(s.labels()).containsEntry("reason", "truncated");
                    assertThat(s.value()).isEqualTo(1.0);
                });
    }

    @Test
    void blocksTheLowPriorityContainerWhileTheHighOneIsActiveAndReleasesItAfter() throws Exception {
        Pod high = pod("high", NODE);
        Pod low = pod("low", NODE);
        Path highFile = cache(hook, high, "main");
        Path lowFile = cache(hook, low, "main");
        Workload.once(highFile, "--format-version", "1", "--device", GPU0 + ":4096:50", "--priority", "0");
        Workload.once(lowFile, "--format-version", "1", "--device", GPU0 + ":4096:50", "--priority", "1");
        // The high-priority container keeps launching kernels (HAMi-core raises recent_kernel on each launch).
        SharedRegionFiles.writeControl(highFile, 1_000_000, 0);

        service = MonitorService.start(settings(), client);

        await().atMost(Patience.seconds(30)).untilAsserted(() -> {
            assertThat(control(lowFile).recentKernel()).isEqualTo(-1);
            assertThat(control(lowFile).utilizationSwitch()).isEqualTo(1);
        });
        await().atMost(Patience.seconds(30)).untilAsserted(() -> {
            // it went idle; written again each time, since a scan that read it before may store its decrement after
            SharedRegionFiles.writeControl(highFile, 0, 0);
            assertThat(control(lowFile).recentKernel()).isZero();
            assertThat(control(lowFile).utilizationSwitch()).isZero();
        });
    }

    @Test
    void removesTheFolderOfAGonePodAfterTheGracePeriodOnly() throws Exception {
        Pod live = pod("live", NODE);
        Pod elsewhere = pod("elsewhere", "node-b");
        Path liveFolder = cache(hook, live, "main").getParent();
        Path goneFolder = hook.resolve("containers/0c0c0c0c-dead-4000-8000-000000000000_main");
        Path otherNode = cache(hook, elsewhere, "main").getParent();
        Path recent = hook.resolve("containers/0d0d0d0d-new0-4000-8000-000000000000_main");
        for (Path dir : List.of(liveFolder, goneFolder, otherNode, recent)) {
            Files.createDirectories(dir);
            Files.write(dir.resolve("x.cache"), new byte[8]);
        }
        FileTime old = FileTime.from(Instant.now().minus(Duration.ofHours(1)));
        for (Path dir : List.of(liveFolder, goneFolder, otherNode)) {
            Files.setLastModifiedTime(dir, old);
        }

        service = MonitorService.start(settings(), client);

        await().atMost(Patience.seconds(30)).until(() -> !Files.exists(goneFolder) && !Files.exists(otherNode));
        service.scanNow(); // two more scans after the removal: the live pod's and the recent folder stay
        service.scanNow();
        assertThat(liveFolder).isDirectory();
        assertThat(recent).isDirectory();
    }

    @Test
    void theMetricsPortClosesHalfARequestLineWithinTheHeaderTimeout() throws Exception {
        var limits = new RequestLimits(Duration.ofSeconds(2), Duration.ofSeconds(2));
        service = MonitorService.start(
                settings(), client, HostGpus.open(settings().nvmlLibrary()), Clock.systemUTC(), limits);

        try (var slow = new Socket(InetAddress.getLoopbackAddress(), service.metricsPort())) {
            slow.setSoTimeout((int) Patience.seconds(30).toMillis());
            long sent = System.nanoTime();
            slow.getOutputStream().write("GET /metr".getBytes(StandardCharsets.ISO_8859_1));
            slow.getOutputStream().flush();

            assertThat(PromText.value(scrape(), "hami_build_info", "version", "1.2.3"))
                    .isEqualTo(1.0);
            assertThat(slow.getInputStream().read())
                    .as("closed without an answer")
                    .isEqualTo(-1);
            // late on a loaded machine, never early
            assertThat(Duration.ofNanos(System.nanoTime() - sent))
                    .isBetween(
                            limits.headerTimeout().minusMillis(500),
                            limits.headerTimeout().plusSeconds(10));
        }
    }
}
