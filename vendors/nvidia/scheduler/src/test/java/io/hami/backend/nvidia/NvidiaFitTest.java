package io.hami.backend.nvidia;

import static io.hami.protocol.testing.FitFixtures.device;
import static io.hami.protocol.testing.FitFixtures.grantedIds;
import static io.hami.protocol.testing.FitFixtures.idle;
import static io.hami.protocol.testing.FitFixtures.onNuma;
import static io.hami.protocol.testing.FitFixtures.reason;
import static io.hami.protocol.testing.FitFixtures.used;
import static io.hami.protocol.testing.FitFixtures.withCapacity;
import static io.hami.protocol.testing.FitFixtures.withMode;
import static io.hami.protocol.testing.KubeFixtures.container;
import static io.hami.protocol.testing.KubeFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.codec.ProtocolExamples;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitResult;
import io.hami.protocol.spi.Discovery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** docs/upstream.md#fit with NVIDIA's rules. */
class NvidiaFitTest {
    private static final NvidiaBackend BACKEND = new NvidiaBackend(NvidiaConfig.DEFAULTS);
    private static final DeviceInfo A100 = device("GPU-a", "NVIDIA A100-SXM4-40GB", 0, 40960);
    private static final DeviceInfo V100 = device("GPU-v", "NVIDIA-Tesla V100-PCIE-32GB", 1, 32768);
    private static final ContainerRequest ONE = new ContainerRequest(1, "NVIDIA", 1000, 101, 10);

    private static FitResult fit(List<DeviceUsage> devices, ContainerRequest request, Map<String, String> pod) {
        return BACKEND.fit(devices, request, FitContext.of(pod));
    }

    @Test
    void aContainerFitsOnTheDiscoveredProtocolDocNode() {
        var node = node("n1", Map.of("hami.io/node-nvidia-register", ProtocolExamples.CURRENT_NVIDIA_REGISTER));
        var devices = ((Discovery.Found) BACKEND.discover(node))
                .devices().stream().map(DeviceUsage::idle).toList();
        var request = BACKEND.request(container(Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "3000")));
        var result = (FitResult.Fits) BACKEND.fit(devices, request, FitContext.of(Map.of()));
        assertThat(result.grants())
                .extracting(FitResult.Grant::entry)
                .containsExactly(new ContainerDevice("GPU-0fc3eda5-e98b-a25b-5b0d-cf5c855d1448", "NVIDIA", 3000, 0));
    }

    @Nested
    class Selectors {
        private final List<DeviceUsage> both = List.of(idle(A100), idle(V100));

        @Test
        void useGpuTypeIsACaseInsensitiveSubstring() {
            assertThat(grantedIds(fit(both, ONE, Map.of("nvidia.com/use-gputype", "a10"))))
                    .containsExactly("GPU-a");
        }

        @Test
        void nouseGpuTypeExcludesMatchingModels() {
            assertThat(grantedIds(fit(both, ONE, Map.of("nvidia.com/nouse-gputype", "V100"))))
                    .containsExactly("GPU-a");
        }

        @Test
        void aTypeSelectorThatMatchesNothingIsCardTypeMismatch() {
            assertThat(reason(fit(both, ONE, Map.of("nvidia.com/use-gputype", "H100"))))
                    .isEqualTo("2/2 CardTypeMismatch");
        }

        @Test
        void useGpuUuidIsAnExactMatch() {
            assertThat(grantedIds(fit(both, ONE, Map.of("nvidia.com/use-gpuuuid", "GPU-a"))))
                    .containsExactly("GPU-a");
            assertThat(reason(fit(both, ONE, Map.of("nvidia.com/use-gpuuuid", "gpu-a, GPU-"))))
                    .isEqualTo("2/2 CardUuidMismatch");
        }

        @Test
        void nouseGpuUuidExcludes() {
            assertThat(grantedIds(fit(both, ONE, Map.of("nvidia.com/nouse-gpuuuid", "GPU-v"))))
                    .containsExactly("GPU-a");
        }

        @Test
        void vgpuModeKeepsDevicesWhoseModeItContains() {
            var mig = idle(withMode(V100, "mig"));
            var list = List.of(idle(A100), mig);
            assertThat(grantedIds(fit(list, ONE, Map.of("nvidia.com/vgpu-mode", "hami-core"))))
                    .containsExactly("GPU-a");
            assertThat(reason(fit(List.of(mig), ONE, Map.of("nvidia.com/vgpu-mode", "hami-core"))))
                    .isEqualTo("1/1 CardTypeMismatch");
        }

        @Test
        void aDeviceWithoutModeMatchesAnyVgpuMode() {
            var noMode = idle(withMode(V100, ""));
            assertThat(grantedIds(fit(List.of(noMode), ONE, Map.of("nvidia.com/vgpu-mode", "mig"))))
                    .containsExactly("GPU-v");
        }

        @Test
        void anotherVendorsRequestIsCardTypeMismatch() {
            var mlu = new ContainerRequest(1, "MLU", 0, 100, 0);
            assertThat(reason(fit(both, mlu, Map.of()))).isEqualTo("2/2 CardTypeMismatch");
        }
    }

    @Test
    void cordonedCardsAreSkipped() {
        var context = new FitContext(Map.of(), Map.of("hami.io/device-cordon", " GPU-v ,, GPU-x"), "spread", List.of());
        var both = List.of(idle(A100), idle(V100));
        assertThat(grantedIds(BACKEND.fit(both, ONE, context))).containsExactly("GPU-a");
        var two = new ContainerRequest(2, "NVIDIA", 1000, 101, 10);
        assertThat(reason(BACKEND.fit(both, two, context)))
                .isEqualTo("1/2 AllocatedCardsInsufficientRequest, 1/2 CardCordoned");
    }

    @Test
    void aHundredCoreRequestNeedsAnUnsharedCard() {
        var exclusive = BACKEND.request(
                container(Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", "1000", "nvidia.com/gpucores", "100")));
        var shared = used(A100, 1, 1000, 0);
        assertThat(reason(fit(List.of(shared), exclusive, Map.of()))).isEqualTo("1/1 ExclusiveDeviceAllocateConflict");
        assertThat(grantedIds(fit(List.of(idle(A100)), exclusive, Map.of()))).containsExactly("GPU-a");
    }

    @Test
    void aWholeCardRequestAlsoNeedsAllTheMemory() {
        var wholeCard = BACKEND.request(container(Map.of("nvidia.com/gpu", "1", "nvidia.com/gpucores", "100")));
        assertThat(reason(fit(List.of(used(A100, 1, 1000, 0)), wholeCard, Map.of())))
                .isEqualTo("1/1 CardInsufficientMemory");
    }

    @Test
    void numaBindKeepsOneNumaNodeAndReportsWhatWasGivenBack() {
        var full = used(A100, 1, 40960, 0);
        var otherNuma = idle(onNuma(V100, 1));
        var two = new ContainerRequest(2, "NVIDIA", 1000, 101, 0);
        assertThat(reason(fit(List.of(full, otherNuma), two, Map.of("nvidia.com/numa-bind", "true"))))
                .isEqualTo("1/2 CardInsufficientMemory, 1/2 NumaNotFit");
        assertThat(reason(fit(List.of(full, otherNuma), two, Map.of())))
                .isEqualTo("1/2 AllocatedCardsInsufficientRequest, 1/2 CardInsufficientMemory");
    }

    @Test
    void numaBindPicksDevicesOfOneNode() {
        var list = List.of(idle(A100), idle(device("GPU-b", "NVIDIA A100", 2, 40960)), idle(onNuma(V100, 1)));
        var two = new ContainerRequest(2, "NVIDIA", 1000, 101, 0);
        assertThat(grantedIds(fit(list, two, Map.of("nvidia.com/numa-bind", "true"))))
                .containsExactly("GPU-b", "GPU-a");
        assertThat(grantedIds(fit(list, two, Map.of()))).containsExactly("GPU-v", "GPU-b");
    }

    private static Arguments reasonCase(
            String reason, DeviceUsage device, ContainerRequest request, Map<String, String> pod, String policy) {
        return Arguments.of(reason, device, request, pod, policy);
    }

    private static final ContainerRequest NO_CORES = new ContainerRequest(1, "NVIDIA", 1000, 101, 0);

    /** Every reason NVIDIA's walk can give, each from a one-device node. */
    static final List<Arguments> REASONS = List.of(
            reasonCase("CardNotHealth", idle(A100.withHealth(false)), ONE, Map.of(), "spread"),
            reasonCase("CardTypeMismatch", idle(A100), ONE, Map.of("nvidia.com/nouse-gputype", "A100"), "spread"),
            reasonCase("CardUuidMismatch", idle(A100), ONE, Map.of("nvidia.com/nouse-gpuuuid", "GPU-a"), "spread"),
            reasonCase("CardTimeSlicingExhausted", used(withCapacity(A100, 2, 100), 2, 0, 0), ONE, Map.of(), "spread"),
            reasonCase("ExclusiveDeviceAllocateConflict", used(A100, 1, 0, 0), ONE, Map.of(), "binpack,mutex"),
            reasonCase("CardInsufficientMemory", used(A100, 1, 40000, 0), ONE, Map.of(), "spread"),
            reasonCase("CardInsufficientCore", used(A100, 1, 0, 95), ONE, Map.of(), "spread"),
            reasonCase("CardComputeUnitsExhausted", used(A100, 1, 0, 100), NO_CORES, Map.of(), "spread"),
            reasonCase(
                    "AllocatedCardsInsufficientRequest",
                    idle(A100),
                    new ContainerRequest(2, "NVIDIA", 1000, 101, 0),
                    Map.of(),
                    "spread"));

    @ParameterizedTest(name = "{0}")
    @FieldSource("REASONS")
    void eachReasonIsReachable(
            String reason, DeviceUsage device, ContainerRequest request, Map<String, String> pod, String policy) {
        var context = new FitContext(pod, Map.of(), policy, List.of());
        assertThat(reason(BACKEND.fit(List.of(device), request, context))).isEqualTo("1/1 " + reason);
    }
}
