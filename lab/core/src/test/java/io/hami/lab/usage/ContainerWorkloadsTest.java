package io.hami.lab.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.hami.lab.kubelet.ContainerAllocation;
import io.hami.lab.node.MockLibraries;
import io.hami.lab.scenario.ContainerSpec;
import io.hami.lab.scenario.UsageProfile;
import io.hami.lab.workload.LabKeys;
import io.hami.lab.workload.UsageAnnotation;
import io.hami.nativebind.hamicore.RegionRead;
import io.hami.nativebind.hamicore.SharedRegion;
import io.hami.nativebind.hamicore.SharedRegionFiles;
import io.hami.protocol.testing.Patience;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The workload processes, run for real ({@code hami-workload} from hardware-mocks), read back with the FFM reader. */
class ContainerWorkloadsTest {
    private static final long MIB = 1L << 20;

    @TempDir
    Path dir;

    private static Pod pod(String name, String uid, UsageProfile usage) {
        return new PodBuilder()
                .withNewMetadata()
                .withNamespace("default")
                .withName(name)
                .withUid(uid)
                .addToAnnotations(
                        LabKeys.USAGE,
                        UsageAnnotation.encode(List.of(new ContainerSpec("server", Map.of(), Map.of(), usage))))
                .endMetadata()
                .withNewSpec()
                .addNewContainer()
                .withName("server")
                .addNewEnv()
                .withName("CUDA_TASK_PRIORITY")
                .withValue("0")
                .endEnv()
                .endContainer()
                .endSpec()
                .build();
    }

    /** What the NVIDIA plugin's HamiCoreGrant answers: the cache in the container, its folder mounted from the host. */
    private ContainerAllocation allocation(String name, String uid) throws Exception {
        return allocation(dir, name, uid);
    }

    private static ContainerAllocation allocation(Path dir, String name, String uid) throws Exception {
        Path host = dir.resolve("containers").resolve(uid + "_server");
        Files.createDirectories(host);
        return new ContainerAllocation(
                new ContainerAllocation.ContainerRef(uid, "default/" + name, "gpu-0", 0, "server"),
                "nvidia.com/gpu",
                List.of("GPU-a-0"),
                new ContainerAllocation.Answer(
                        Map.of(
                                "NVIDIA_VISIBLE_DEVICES", "GPU-a",
                                "CUDA_DEVICE_MEMORY_LIMIT_0", "4000m",
                                "CUDA_DEVICE_SM_LIMIT", "30",
                                "CUDA_DEVICE_MEMORY_SHARED_CACHE", "/usr/local/vgpu/c0ffee.cache"),
                        List.of(
                                new ContainerAllocation.Mount(
                                        "/usr/local/vgpu/libvgpu.so",
                                        dir.resolve("libvgpu.so").toString(),
                                        true),
                                new ContainerAllocation.Mount("/usr/local/vgpu", host.toString(), false)),
                        List.of()),
                Duration.ofMillis(1));
    }

    @Test
    void aContainerWithAProfileWritesItsRegionUntilItsPodEndsAndLeavesNoProcess() throws Exception {
        Path tool = MockLibraries.workloadTool(dir.resolve("tools"));
        Path region = dir.resolve("containers/uid-1_server/c0ffee.cache");
        List<ProcessHandle> processes;
        try (var workloads = new ContainerWorkloads(tool)) {
            workloads.start(
                    pod("infer-0", "uid-1", new UsageProfile("60%", 40, UsageProfile.Shape.STEADY, false)),
                    List.of(allocation("infer-0", "uid-1")),
                    null);
            workloads.start(
                    pod("infer-1", "uid-2", new UsageProfile("1000", 10, UsageProfile.Shape.BURST, false)),
                    List.of(allocation("infer-1", "uid-2")),
                    null);
            processes = workloads.processes();
            assertThat(processes).hasSize(2).allMatch(ProcessHandle::isAlive);

            await().atMost(Patience.seconds(20)).untilAsserted(() -> {
                assertThat(SharedRegionFiles.read(region)).isInstanceOf(RegionRead.Read.class);
                SharedRegion r = ((RegionRead.Read) SharedRegionFiles.read(region)).region();
                assertThat(r.processes()).isNotEmpty();
                assertThat(r.processes().getFirst().memory().getFirst().totalBytes())
                        .isEqualTo(2400 * MIB);
            });
            SharedRegion r = ((RegionRead.Read) SharedRegionFiles.read(region)).region();
            assertThat(r.devices().getFirst().uuid()).isEqualTo("GPU-a");
            assertThat(r.devices().getFirst().memoryLimitBytes()).isEqualTo(4000 * MIB);
            assertThat(r.devices().getFirst().smLimitPercent()).isEqualTo(30);
            assertThat(r.control().priority())
                    .as("CUDA_TASK_PRIORITY of the container")
                    .isZero();

            workloads.stop("uid-1");
            assertThat(processes.stream().filter(ProcessHandle::isAlive).toList())
                    .as("another pod's workload runs on")
                    .hasSize(1)
                    .isEqualTo(workloads.processes());
            assertThat(workloads.lastWritten())
                    .contains(new ContainerUsage("default/infer-0", "server", 0, "GPU-a", 2400 * MIB, 4000 * MIB));
        }
        assertThat(processes).noneMatch(ProcessHandle::isAlive);
    }

    @Test
    void aContainerWithoutAnAllocationIsAProblemNotAProcess() throws Exception {
        try (var workloads = new ContainerWorkloads(MockLibraries.workloadTool(dir.resolve("tools")))) {
            workloads.start(
                    pod("infer-0", "uid-1", new UsageProfile("60%", 40, null, null)), List.of(), Duration.ofSeconds(5));

            assertThat(workloads.processes()).isEmpty();
            assertThat(workloads.problems())
                    .containsExactly("default/infer-0 container server: no NVIDIA Allocate answer was recorded for it");
        }
    }

    @Test
    void aJvmThatExitsWithoutClosingTakesItsWorkloadsWithIt() throws Exception {
        String jvm = ProcessHandle.current().info().command().orElseThrow();
        Process child = new ProcessBuilder(
                        jvm,
                        "-cp",
                        System.getProperty("java.class.path"),
                        ExitWithoutClose.class.getName(),
                        dir.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor()).as(output).isZero();
        long pid = Long.parseLong(output.lines()
                .filter(l -> l.startsWith("workload pid "))
                .findFirst()
                .orElseThrow(() -> new AssertionError(output))
                .substring("workload pid ".length()));

        await().atMost(Patience.seconds(5))
                .untilAsserted(() -> assertThat(running(pid))
                        .as("the workload of a JVM that exited")
                        .isFalse());
    }

    /** Whether the process runs: a zombie waiting for whoever adopted it to reap it does not. */
    private static boolean running(long pid) throws IOException {
        Path stat = Path.of("/proc", Long.toString(pid), "stat");
        if (!Files.exists(stat)) {
            return false;
        }
        try {
            String text = Files.readString(stat);
            return text.charAt(text.lastIndexOf(')') + 2) != 'Z';
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** Starts a workload and exits without closing: the shutdown hook must stop it. */
    static final class ExitWithoutClose {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            var workloads = new ContainerWorkloads(MockLibraries.workloadTool(dir.resolve("tools")));
            workloads.start(
                    pod("infer-0", "uid-9", new UsageProfile("10%", 10, null, null)),
                    List.of(allocation(dir, "infer-0", "uid-9")),
                    null);
            System.out.println(
                    "workload pid " + workloads.processes().getFirst().pid());
            System.exit(0);
        }
    }
}
