package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.plugin.PluginApp;
import io.hami.plugin.testing.MockVendor;
import io.hami.plugin.testing.PluginRun;
import io.hami.plugin.testing.TestCluster;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * An independent kubelet: Debian's python3-grpcio with stubs generated from the same api.proto
 * ({@code src/test/python/kubelet_client.py}) registers the NVIDIA plugin, reads ListAndWatch, asks for a
 * preferred allocation and allocates. Install its packages with {@code scripts/install-test-deps.sh}.
 */
class PythonKubeletTest {
    static final Path PYTHON = Path.of("/usr/bin/python3");
    static final String GPU1 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000001";

    @TempDir
    Path root;

    @Test
    void aPythonKubeletRegistersListsAndAllocates() throws Exception {
        Assumptions.assumeTrue(
                pythonGrpcAvailable(),
                "skipped: /usr/bin/python3 with grpc and grpc_tools is not "
                        + "installed; run scripts/install-test-deps.sh (Debian python3-grpcio, python3-grpc-tools)");
        Path dir = Files.createDirectories(root.resolve("dp"));
        try (TestCluster cluster = new TestCluster()) {
            cluster.node("n1");
            cluster.pod("py", List.of(), List.of(TestCluster.container("main")));
            var keys = DeviceBackends.load(DeviceConfig.DEFAULTS)
                    .byVendor(NvidiaKeys.VENDOR)
                    .orElseThrow()
                    .keys();
            cluster.bind("py", "n1", Map.of(keys, GPU1 + ",NVIDIA,2048,20:;"));

            Process python = new ProcessBuilder(
                            PYTHON.toString(),
                            Path.of(System.getProperty("hami.python.dir"), "kubelet_client.py")
                                    .toString(),
                            "--proto",
                            System.getProperty("hami.proto.file"),
                            "--dir",
                            dir.toString(),
                            "--timeout",
                            "60")
                    .redirectError(root.resolve("python.err").toFile())
                    .start();
            try (PluginApp plugin = PluginApp.start(
                    cluster.client(),
                    PluginRun.settings("nvidia", "n1", dir, MockVendor.install(root.resolve("mock"), "nvidia"), root),
                    Clock.systemUTC())) {
                assertThat(python.waitFor(90, TimeUnit.SECONDS))
                        .as("the Python kubelet finished")
                        .isTrue();
                String stdout = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
                assertThat(python.exitValue())
                        .as("exit code; stderr: %s", Files.readString(root.resolve("python.err")))
                        .isZero();

                JsonNode seen = JsonMapper.builder().build().readTree(stdout);
                assertThat(seen.get("register").toString())
                        .isEqualTo(
                                "{\"endpoint\":\"nvidia-gpu.sock\",\"resource\":\"nvidia.com/gpu\",\"version\":\"v1beta1\"}");
                assertThat(seen.get("preferredAvailable").asBoolean()).isTrue();
                assertThat(seen.get("devices").asInt()).isEqualTo(20);
                assertThat(seen.get("healthy").asInt()).isEqualTo(20);
                assertThat(seen.get("allocated").get(0).asString()).startsWith(GPU1 + "-");
                JsonNode envs = seen.get("envs");
                assertThat(envs.get("NVIDIA_VISIBLE_DEVICES").asString()).isEqualTo(GPU1);
                assertThat(envs.get("CUDA_DEVICE_MEMORY_LIMIT_0").asString()).isEqualTo("2048m");
                assertThat(envs.get("CUDA_DEVICE_SM_LIMIT").asString()).isEqualTo("20");
                assertThat(seen.get("mounts").get(0).toString())
                        .isEqualTo("[\"/usr/local/vgpu/libvgpu.so\",\"" + root.resolve("usr/local/vgpu/libvgpu.so")
                                + "\",true]");
                assertThat(cluster.annotation("py", ProtocolKeys.BIND_PHASE)).isEqualTo("success");
                assertThat(plugin.registrations()).isEqualTo(1);
            } finally {
                python.destroyForcibly();
            }
        }
    }

    private static boolean pythonGrpcAvailable() throws IOException, InterruptedException {
        if (!Files.isExecutable(PYTHON)) {
            return false;
        }
        Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import grpc, grpc_tools.protoc")
                .redirectErrorStream(true)
                .start();
        p.getInputStream().readAllBytes();
        return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
