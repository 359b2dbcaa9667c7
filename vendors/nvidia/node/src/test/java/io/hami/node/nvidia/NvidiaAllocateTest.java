package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.plugin.kubeletapi.ContainerAllocateResponse;
import io.hami.plugin.kubeletapi.Mount;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.TestCluster;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.VendorKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * NVIDIA Allocate against the NVML mock and the embedded API server, over real sockets (design D4 and D7 in
 * docs/design.md#d4 and docs/design.md#d7, docs/upstream.md#nvidia-allocate).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NvidiaAllocateTest {
    static final String NODE = "gpu-node";
    static final String GPU0 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";
    static final String GPU1 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000001";
    static final String RESOURCE = "nvidia.com/gpu";
    static final VendorKeys KEYS = DeviceBackends.load(DeviceConfig.DEFAULTS)
            .byVendor(NvidiaKeys.VENDOR)
            .orElseThrow()
            .keys();

    @RegisterExtension
    static final PluginFixture node = new PluginFixture(NODE);

    Path vgpu;

    @BeforeAll
    void start() {
        node.start("nvidia");
        vgpu = node.root().resolve("usr/local/vgpu");
    }

    @Test
    void singleContainerGetsHamiCoreEnvAndMountsAndThePodSucceeds() {
        String uid = node.cluster()
                .pod("single", List.of(), List.of(TestCluster.container("main")))
                .getMetadata()
                .getUid();
        node.cluster().bind("single", NODE, Map.of(KEYS, GPU0 + ",NVIDIA,3000,30:;"));

        ContainerAllocateResponse r =
                node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-3")).getContainerResponses(0);

        Map<String, String> env = r.getEnvsMap();
        assertThat(env)
                .containsEntry("NVIDIA_VISIBLE_DEVICES", GPU0)
                .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "3000m")
                .containsEntry("CUDA_DEVICE_SM_LIMIT", "30")
                .doesNotContainKeys("CUDA_OVERSUBSCRIBE", "LIBCUDA_LOG_LEVEL", "GPU_CORE_UTILIZATION_POLICY");
        assertThat(env.get("CUDA_DEVICE_MEMORY_SHARED_CACHE")).matches("/usr/local/vgpu/[0-9a-f-]{36}\\.cache");
        assertThat(env).hasSize(4);
        Path cache = vgpu.resolve("containers/" + uid + "_main");
        assertThat(r.getMountsList())
                .containsExactly(
                        mount("/usr/local/vgpu/libvgpu.so", vgpu.resolve("libvgpu.so"), true),
                        mount("/usr/local/vgpu", cache, false),
                        mount("/tmp/vgpulock", node.root().resolve("tmp/vgpulock"), false),
                        mount("/etc/ld.so.preload", vgpu.resolve("ld.so.preload"), true));
        assertThat(r.getDevicesList()).isEmpty();
        assertThat(cache).isDirectory();
        assertThat(permissions(cache)).isEqualTo("rwxrwxrwx");
        assertThat(permissions(node.root().resolve("tmp/vgpulock"))).isEqualTo("rwxrwxrwx");

        assertThat(node.cluster().annotation("single", KEYS.toAllocateKey())).isEqualTo(";");
        assertThat(node.cluster().annotation("single", KEYS.allocatedKey())).isEqualTo(GPU0 + ",NVIDIA,3000,30:;");
        assertThat(node.cluster().annotation("single", ProtocolKeys.BIND_PHASE)).isEqualTo("success");
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).isNull();
    }

    @Test
    void initAndAppContainersAreServedInOrderAndOnlyTheLastFinishesThePod() {
        String uid = node.cluster()
                .pod(
                        "multi",
                        List.of(TestCluster.container("init")),
                        List.of(TestCluster.container("cpu-only"), TestCluster.container("gpu")))
                .getMetadata()
                .getUid();
        node.cluster().bind("multi", NODE, Map.of(KEYS, GPU1 + ",NVIDIA,1000,10:;;" + GPU0 + ",NVIDIA,5000,0:;"));

        ContainerAllocateResponse init =
                node.kubelet().allocate(RESOURCE, List.of(GPU1 + "-0")).getContainerResponses(0);
        assertThat(init.getEnvsMap())
                .containsEntry("NVIDIA_VISIBLE_DEVICES", GPU1)
                .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "1000m")
                .containsEntry("CUDA_DEVICE_SM_LIMIT", "10");
        assertThat(init.getMounts(1).getHostPath()).endsWith(uid + "_init");
        assertThat(node.cluster().annotation("multi", KEYS.toAllocateKey()))
                .isEqualTo(";;" + GPU0 + ",NVIDIA,5000,0:;");
        assertThat(node.cluster().annotation("multi", ProtocolKeys.BIND_PHASE)).isEqualTo("allocating");
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).endsWith(",default,multi");

        ContainerAllocateResponse app =
                node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-9")).getContainerResponses(0);
        assertThat(app.getEnvsMap())
                .containsEntry("NVIDIA_VISIBLE_DEVICES", GPU0)
                .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "5000m")
                .containsEntry("CUDA_DEVICE_SM_LIMIT", "0");
        assertThat(app.getMounts(1).getHostPath()).endsWith(uid + "_gpu");
        assertThat(node.cluster().annotation("multi", KEYS.toAllocateKey())).isEqualTo(";;;");
        assertThat(node.cluster().annotation("multi", ProtocolKeys.BIND_PHASE)).isEqualTo("success");
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).isNull();
    }

    @Test
    void multiDeviceContainerGetsOneLimitPerDeviceAndTheFirstDevicesCores() {
        node.cluster()
                .pod(
                        "two-gpus",
                        List.of(),
                        List.of(TestCluster.container("main", Map.of("CUDA_DISABLE_CONTROL", "true"))));
        node.cluster().bind("two-gpus", NODE, Map.of(KEYS, GPU0 + ",NVIDIA,2000,25:" + GPU1 + ",NVIDIA,4000,50:;"));

        ContainerAllocateResponse r = node.kubelet()
                .allocate(RESOURCE, List.of(GPU0 + "-1", GPU1 + "-1"))
                .getContainerResponses(0);

        assertThat(r.getEnvsMap())
                .containsEntry("NVIDIA_VISIBLE_DEVICES", GPU0 + "," + GPU1)
                .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_0", "2000m")
                .containsEntry("CUDA_DEVICE_MEMORY_LIMIT_1", "4000m")
                .containsEntry("CUDA_DEVICE_SM_LIMIT", "25");
        // CUDA_DISABLE_CONTROL=true in the container spec: no ld.so.preload
        assertThat(r.getMountsList())
                .extracting(Mount::getContainerPath)
                .containsExactly("/usr/local/vgpu/libvgpu.so", "/usr/local/vgpu", "/tmp/vgpulock");
        assertThat(node.cluster().annotation("two-gpus", ProtocolKeys.BIND_PHASE))
                .isEqualTo("success");
    }

    @Test
    void preferredAllocationPicksReplicasOfTheSchedulersGpus() {
        node.cluster().pod("prefer", List.of(), List.of(TestCluster.container("main")));
        node.cluster().bind("prefer", NODE, Map.of(KEYS, GPU1 + ",NVIDIA,1000,10:" + GPU0 + ",NVIDIA,1000,10:;"));
        List<String> available = List.of(GPU0 + "-0", GPU0 + "-1", GPU1 + "-0", GPU1 + "-1");

        assertThat(node.kubelet()
                        .prefer(RESOURCE, available, List.of(), 2)
                        .getContainerResponses(0)
                        .getDeviceIDsList())
                .containsExactly(GPU1 + "-0", GPU0 + "-0");
        assertThat(node.kubelet()
                        .prefer(RESOURCE, available, List.of(GPU0 + "-1"), 2)
                        .getContainerResponses(0)
                        .getDeviceIDsList())
                .containsExactly(GPU1 + "-0", GPU0 + "-1");
        // the kubelet offers no replica of GPU1: no preference, the kubelet chooses
        assertThat(node.kubelet()
                        .prefer(RESOURCE, List.of(GPU0 + "-0", GPU0 + "-1"), List.of(), 2)
                        .getContainerResponses(0)
                        .getDeviceIDsList())
                .isEmpty();
        assertThat(node.cluster().annotation("prefer", KEYS.toAllocateKey()))
                .isEqualTo(GPU1 + ",NVIDIA,1000,10:" + GPU0 + ",NVIDIA,1000,10:;");

        node.kubelet().allocate(RESOURCE, List.of(GPU1 + "-0", GPU0 + "-0"));
        assertThat(node.cluster().annotation("prefer", ProtocolKeys.BIND_PHASE)).isEqualTo("success");
    }

    @Test
    void anAllocateWithoutAPodFailsClearlyAndWritesNothing() {
        String lockBefore = node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK);

        assertThatThrownBy(() -> node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-5")))
                .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
                    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
                    assertThat(e.getStatus().getDescription())
                            .isEqualTo("node gpu-node is not locked: an Allocate of nvidia.com/gpu is served only for "
                                    + "the pod the node lock names");
                });
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).isEqualTo(lockBefore);
    }

    @Test
    void aDeviceCountMismatchFailsThePodAndReleasesTheLock() {
        node.cluster().pod("mismatch", List.of(), List.of(TestCluster.container("main")));
        String decision = GPU0 + ",NVIDIA,1000,10:;";
        node.cluster().bind("mismatch", NODE, Map.of(KEYS, decision));

        assertThatThrownBy(() -> node.kubelet().allocate(RESOURCE, List.of(GPU0 + "-1", GPU1 + "-1")))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getDescription())
                                .isEqualTo(
                                        "device number not matched: the kubelet asks for 2 NVIDIA devices, the scheduler "
                                                + "granted 1 to container main of pod default/mismatch"));
        assertThat(node.cluster().annotation("mismatch", ProtocolKeys.BIND_PHASE))
                .isEqualTo("failed");
        assertThat(node.cluster().annotation("mismatch", KEYS.toAllocateKey())).isEqualTo(decision);
        assertThat(node.cluster().nodeAnnotation(NODE, ProtocolKeys.NODE_LOCK)).isNull();
        node.cluster().reject("mismatch");
    }

    private static Mount mount(String container, Path host, boolean readOnly) {
        return Mount.newBuilder()
                .setContainerPath(container)
                .setHostPath(host.toString())
                .setReadOnly(readOnly)
                .build();
    }

    private static String permissions(Path p) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
