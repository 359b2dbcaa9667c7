package io.hami.lab.usage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.lab.kubelet.ContainerAllocation;
import io.hami.lab.scenario.UsageProfile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RegionPlanTest {
    private static final List<ContainerAllocation.Mount> MOUNTS = List.of(
            new ContainerAllocation.Mount("/usr/local/vgpu/libvgpu.so", "/h/usr/local/vgpu/libvgpu.so", true),
            new ContainerAllocation.Mount("/usr/local/vgpu", "/h/usr/local/vgpu/containers/u_c", false),
            new ContainerAllocation.Mount("/tmp/vgpulock", "/h/tmp/vgpulock", false));

    private static ContainerAllocation.Answer answer(Map<String, String> env) {
        return new ContainerAllocation.Answer(env, MOUNTS, List.of());
    }

    @Test
    void readsTheRegionPathAndLimitsAsHamiCoreWould() {
        RegionPlan plan = RegionPlan.of(
                answer(Map.of(
                        "NVIDIA_VISIBLE_DEVICES", "GPU-a,GPU-b",
                        "CUDA_DEVICE_MEMORY_LIMIT_0", "12000m",
                        "CUDA_DEVICE_MEMORY_LIMIT_1", "2g",
                        "CUDA_DEVICE_SM_LIMIT", "30",
                        "CUDA_DEVICE_MEMORY_SHARED_CACHE", "/usr/local/vgpu/x.cache")),
                Map.of());

        assertThat(plan)
                .isEqualTo(new RegionPlan(
                        Path.of("/h/usr/local/vgpu/containers/u_c/x.cache"),
                        List.of(new RegionPlan.Device("GPU-a", 12000, 30), new RegionPlan.Device("GPU-b", 2048, 30)),
                        1));
        assertThat(WorkloadCommand.of(
                        Path.of("/t/hami-workload"),
                        plan,
                        new UsageProfile("50%", 20, UsageProfile.Shape.RAMP, false),
                        Duration.ofSeconds(7)))
                .containsExactly(
                        "/t/hami-workload",
                        "--region",
                        "/h/usr/local/vgpu/containers/u_c/x.cache",
                        "--format-version",
                        "1",
                        "--device",
                        "GPU-a:12000:30",
                        "--device",
                        "GPU-b:2048:30",
                        "--priority",
                        "1",
                        "--processes",
                        "1",
                        "--used-mib",
                        "6000",
                        "--sm-util",
                        "20",
                        "--profile",
                        "ramp",
                        "--period-ms",
                        "250",
                        "--duration-s",
                        "7");
    }

    @Test
    void aMissingOrMalformedVariableIsNamed() {
        var env = Map.of(
                "NVIDIA_VISIBLE_DEVICES", "GPU-a",
                "CUDA_DEVICE_MEMORY_LIMIT_0", "12000",
                "CUDA_DEVICE_MEMORY_SHARED_CACHE", "/usr/local/vgpu/x.cache");
        assertThatThrownBy(() -> RegionPlan.of(answer(env), Map.of()))
                .hasMessage("CUDA_DEVICE_MEMORY_LIMIT_0=12000 is not MiB (4000m) or GiB (4g)");
        assertThatThrownBy(() -> RegionPlan.of(answer(Map.of("NVIDIA_VISIBLE_DEVICES", "GPU-a")), Map.of()))
                .hasMessage("the plugin's answer has no CUDA_DEVICE_MEMORY_SHARED_CACHE");
        assertThatThrownBy(() -> RegionPlan.hostPath("/elsewhere/x.cache", MOUNTS))
                .hasMessage("no mount of the plugin's answer holds /elsewhere/x.cache");
    }
}
