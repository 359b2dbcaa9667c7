package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.backend.hygon.HygonKeys;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.plugin.PluginApp;
import io.hami.plugin.kubeletapi.ContainerAllocateResponse;
import io.hami.plugin.kubeletapi.DeviceSpec;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.TestCluster;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.VendorKeys;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A pod served by two vendors' plugins, and a plugin restarted in the middle of a pod (design D4, docs/design.md#d4). */
class PodLifecycleTest {
    static final String NODE = "n1";
    static final String GPU0 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";
    static final String HCU0 = "DCU-6c8a1f4e2b9d0001";
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);
    static final VendorKeys NVIDIA =
            BACKENDS.byVendor(NvidiaKeys.VENDOR).orElseThrow().keys();
    static final VendorKeys HCU =
            BACKENDS.byVendor(HygonKeys.VENDOR).orElseThrow().keys();

    @RegisterExtension
    final PluginFixture node = new PluginFixture(NODE);

    @Test
    void aTwoVendorPodSucceedsOnlyWhenTheLastVendorIsDone() {
        try (PluginApp nvidia = node.start("nvidia");
                PluginApp hygon = node.start("hygon")) {
            node.cluster()
                    .pod("mixed", List.of(), List.of(TestCluster.container("cuda"), TestCluster.container("dtk")));
            node.cluster()
                    .bind(
                            "mixed",
                            NODE,
                            Map.of(NVIDIA, GPU0 + ",NVIDIA,2000,20:;;", HCU, ";" + HCU0 + ",HCU,65536,100:;"));

            ContainerAllocateResponse cuda = node.kubelet()
                    .allocate("nvidia.com/gpu", List.of(GPU0 + "-0"))
                    .getContainerResponses(0);
            assertThat(cuda.getEnvsMap()).containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "2000m");
            assertThat(node.cluster().annotation("mixed", NVIDIA.toAllocateKey()))
                    .isEqualTo(";;");
            assertThat(node.cluster().annotation("mixed", ProtocolKeys.BIND_PHASE))
                    .isEqualTo("allocating");
            assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK))
                    .endsWith(",default,mixed");

            ContainerAllocateResponse dtk = node.kubelet()
                    .allocate("hygon.com/hcunum", List.of(HCU0 + "-2"))
                    .getContainerResponses(0);
            assertThat(dtk.getDevicesList())
                    .extracting(DeviceSpec::getContainerPath)
                    .containsExactly("/dev/kfd", "/dev/mkfd", "/dev/dri/card0", "/dev/dri/renderD128");
            assertThat(dtk.getEnvsMap()).isEmpty();
            assertThat(node.cluster().annotation("mixed", HCU.toAllocateKey())).isEqualTo(";;");
            assertThat(node.cluster().annotation("mixed", ProtocolKeys.BIND_PHASE))
                    .isEqualTo("success");
            assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK))
                    .isNull();
            assertThat(nvidia.registrations() + hygon.registrations()).isEqualTo(2);
        }
    }

    @Test
    void aPluginRestartedBetweenTwoContainersServesTheSecondOne() {
        node.cluster()
                .pod("restart", List.of(), List.of(TestCluster.container("first"), TestCluster.container("second")));
        node.cluster().bind("restart", NODE, Map.of(NVIDIA, GPU0 + ",NVIDIA,1000,10:;" + GPU0 + ",NVIDIA,3000,30:;"));

        try (PluginApp before = node.start("nvidia")) {
            assertThat(node.kubelet()
                            .allocate("nvidia.com/gpu", List.of(GPU0 + "-0"))
                            .getContainerResponses(0)
                            .getEnvsMap())
                    .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "1000m");
            assertThat(before.registrations()).isEqualTo(1);
        }
        assertThat(node.pluginDir().resolve("nvidia-gpu.sock")).doesNotExist();
        assertThat(node.cluster().annotation("restart", ProtocolKeys.BIND_PHASE))
                .isEqualTo("allocating");

        try (PluginApp after = node.start("nvidia")) {
            assertThat(node.kubelet().registrations()).hasSize(2);
            assertThat(after.registrations()).isEqualTo(1);
            assertThat(node.kubelet()
                            .allocate("nvidia.com/gpu", List.of(GPU0 + "-1"))
                            .getContainerResponses(0)
                            .getEnvsMap())
                    .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "3000m");
        }
        assertThat(node.cluster().annotation("restart", NVIDIA.toAllocateKey())).isEqualTo(";;");
        assertThat(node.cluster().annotation("restart", ProtocolKeys.BIND_PHASE))
                .isEqualTo("success");
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).isNull();
    }
}
