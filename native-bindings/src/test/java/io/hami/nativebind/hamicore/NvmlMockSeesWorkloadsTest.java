package io.hami.nativebind.hamicore;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.nativebind.MockLibrary;
import io.hami.nativebind.nvml.Nvml;
import io.hami.nativebind.nvml.NvmlUtilization;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NVML mock counts the memory and SM utilisation that HAMi-core workloads account in regions/ next to its device
 * file.
 */
class NvmlMockSeesWorkloadsTest {
    private static final long MIB = 1024 * 1024;
    private static final String GPU0 = "GPU-00000000-0000-0000-0000-000000000000";
    private static final String GPU1 = "GPU-11111111-1111-1111-1111-111111111111";
    private static final String DEVICES = """
            {"devices": [
              {"uuid": "%s", "memoryMiB": 40960, "usedMiB": 1024, "utilization": 10, "memoryUtilization": 25},
              {"uuid": "%s", "memoryMiB": 1024, "utilization": 30}
            ]}""".formatted(GPU0, GPU1);

    @TempDir
    Path dir;

    @Test
    void usedMemoryIsTheDeviceFilesPlusEveryRegionsAccountedTotal() {
        MockLibrary mock = MockLibrary.install(dir, "nvidia", DEVICES, "libnvidia-ml.so.1");
        Path containers = dir.resolve("regions");
        write(containers.resolve("pod-a_main/a.cache"), "1", GPU0 + ":8192:50", 2, 100, 15);
        write(containers.resolve("pod-b_main/b.cache"), "0", GPU0 + ":4096:0", 1, 300, 20);
        write(containers.resolve("pod-c_main/c.cache"), "1", GPU1 + ":4096:0", 1, 4000, 80);

        try (Nvml nvml = Nvml.open(mock.path("libnvidia-ml.so.1"))) {
            assertThat(nvml.memory(0).usedBytes()).isEqualTo((1024 + 2 * 100 + 300) * MIB);
            // never more than the card: a region that claims more is capped
            assertThat(nvml.memory(1).usedBytes()).isEqualTo(1024 * MIB);
            assertThat(nvml.memory(1).freeBytes()).isZero();
        }
    }

    @Test
    void gpuUtilizationIsTheDeviceFilesPlusEveryRegionsSmUtilizationAtMost100() {
        MockLibrary mock = MockLibrary.install(dir, "nvidia", DEVICES, "libnvidia-ml.so.1");
        Path containers = dir.resolve("regions");
        write(containers.resolve("pod-a_main/a.cache"), "1", GPU0 + ":8192:50", 2, 100, 15);
        write(containers.resolve("pod-b_main/b.cache"), "0", GPU0 + ":4096:0", 1, 300, 20);
        write(containers.resolve("pod-c_main/c.cache"), "1", GPU1 + ":4096:0", 1, 100, 80);

        try (Nvml nvml = Nvml.open(mock.path("libnvidia-ml.so.1"))) {
            assertThat(nvml.utilization(0)).isEqualTo(new NvmlUtilization(10 + 2 * 15 + 20, 25));
            assertThat(nvml.utilization(1)).as("30 + 80, capped").isEqualTo(new NvmlUtilization(100, 0));

            write(containers.resolve("pod-a_main/a.cache"), "1", GPU0 + ":8192:50", 2, 100, 0);

            assertThat(nvml.utilization(0).gpuPercent())
                    .as("read afresh per call")
                    .isEqualTo(10 + 20);
        }
    }

    private static void write(Path file, String version, String device, int processes, int usedMib, int smUtil) {
        file.getParent().toFile().mkdirs();
        HamiWorkload.ok(
                "--region",
                file.toString(),
                "--format-version",
                version,
                "--device",
                device,
                "--priority",
                "1",
                "--processes",
                Integer.toString(processes),
                "--used-mib",
                Integer.toString(usedMib),
                "--sm-util",
                Integer.toString(smUtil),
                "--once");
    }
}
