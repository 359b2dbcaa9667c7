package io.hami.lab.usage;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ScrapeExcerptTest {
    @Test
    void keepsTheSeriesOfTheFirstContainerOnly() {
        String exposition = """
                # HELP hami_vgpu_memory_used_bytes vGPU device memory usage in bytes
                # TYPE hami_vgpu_memory_used_bytes gauge
                hami_vgpu_memory_used_bytes{container="a",namespace="default",pod="p-0",vdevice_index="0"} 1.0
                hami_vgpu_memory_used_bytes{container="b",namespace="default",pod="p-0",vdevice_index="0"} 2.0
                hami_host_gpu_memory_used_bytes{device_index="0",node="n"} 3.0
                hami_vgpu_memory_limit_bytes{container="a",namespace="default",pod="p-0",vdevice_index="0"} 4.0
                """;

        assertThat(ScrapeExcerpt.firstContainer(exposition, 10))
                .containsExactly(
                        "hami_vgpu_memory_used_bytes{container=\"a\",namespace=\"default\",pod=\"p-0\",vdevice_index=\"0\"} 1.0",
                        "hami_vgpu_memory_limit_bytes{container=\"a\",namespace=\"default\",pod=\"p-0\",vdevice_index=\"0\"} 4.0");
        assertThat(ScrapeExcerpt.firstContainer(exposition, 1)).hasSize(1);
    }
}
