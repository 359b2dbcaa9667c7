package io.hami.backend.cambricon;

import static io.hami.protocol.testing.FitFixtures.grantedIds;
import static io.hami.protocol.testing.FitFixtures.idle;
import static io.hami.protocol.testing.FitFixtures.reason;
import static io.hami.protocol.testing.FitFixtures.used;
import static io.hami.protocol.testing.FitFixtures.withCapacity;
import static io.hami.protocol.testing.KubeFixtures.container;
import static io.hami.protocol.testing.KubeFixtures.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.ContainerRequest;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitResult;
import io.hami.protocol.spi.Discovery;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** docs/upstream.md#fit with Cambricon's rules. */
class CambriconFitTest {
    private static final CambriconBackend BACKEND = new CambriconBackend(CambriconConfig.DEFAULTS);
    private static final DeviceInfo MLU0 = new DeviceInfo("n-cambricon-mlu-0", 0, 100, 24576, 100, "MLU", 0, "", true);
    private static final DeviceInfo MLU1 = new DeviceInfo("n-cambricon-mlu-1", 1, 100, 24576, 100, "MLU", 0, "", true);
    private static final ContainerRequest HALF = new ContainerRequest(1, "MLU", 1024, 0, 50);

    private static FitResult fit(List<DeviceUsage> devices, ContainerRequest request, Map<String, String> pod) {
        return BACKEND.fit(devices, request, FitContext.of(pod));
    }

    @Test
    void aContainerFitsOnDevicesDiscoveredFromCapacity() {
        var node = node(
                "n",
                Map.of(),
                Map.of("cambricon.com/mlu.smlu.vcore", "200", "cambricon.com/mlu.smlu.vmemory", "192"),
                Map.of());
        var devices = ((Discovery.Found) BACKEND.discover(node))
                .devices().stream().map(DeviceUsage::idle).toList();
        var request =
                BACKEND.request(container(Map.of("cambricon.com/vmlu", "1", "cambricon.com/mlu.smlu.vmemory", "8")));
        assertThat(((FitResult.Fits) fit(devices, request, Map.of())).grants())
                .extracting(FitResult.Grant::entry)
                .containsExactly(new ContainerDevice("n-cambricon-mlu-1", "MLU", 2048, 100));
    }

    @Test
    void aWholeCardByDefaultNeedsAnUnusedCard() {
        var wholeCard = BACKEND.request(container(Map.of("cambricon.com/vmlu", "1")));
        assertThat(wholeCard).isEqualTo(new ContainerRequest(1, "MLU", 0, 100, 100));
        assertThat(reason(fit(List.of(used(MLU0, 1, 0, 0)), wholeCard, Map.of())))
                .isEqualTo("1/1 ExclusiveDeviceAllocateConflict");
        assertThat(reason(fit(List.of(used(MLU0, 1, 1024, 0)), wholeCard, Map.of())))
                .isEqualTo("1/1 CardInsufficientMemory");
        var granted = (FitResult.Fits) fit(List.of(idle(MLU0)), wholeCard, Map.of());
        assertThat(granted.grants().getFirst().entry()).isEqualTo(new ContainerDevice(MLU0.id(), "MLU", 24576, 100));
    }

    @Test
    void uuidSelectorsUseTheCambriconDomain() {
        var both = List.of(idle(MLU0), idle(MLU1));
        assertThat(grantedIds(fit(both, HALF, Map.of("cambricon.com/use-gpuuuid", MLU0.id()))))
                .containsExactly(MLU0.id());
        assertThat(grantedIds(fit(both, HALF, Map.of("cambricon.com/nouse-gpuuuid", MLU1.id()))))
                .containsExactly(MLU0.id());
        assertThat(grantedIds(fit(both, HALF, Map.of("cambricon.com/use-mlu-uuid", MLU0.id()))))
                .containsExactly(MLU1.id());
    }

    @Test
    void typeSelectorsAreNotReadLikeUpstream() {
        var both = List.of(idle(MLU0), idle(MLU1));
        assertThat(grantedIds(fit(both, HALF, Map.of("cambricon.com/use-mlutype", "MLU370"))))
                .containsExactly(MLU1.id());
    }

    @Test
    void devicesOfOneRequestMayBeOnDifferentNumaNodes() {
        var otherNuma = new DeviceInfo("n-cambricon-mlu-1", 1, 100, 24576, 100, "MLU", 1, "", true);
        var two = new ContainerRequest(2, "MLU", 1024, 0, 10);
        assertThat(BACKEND.numaBind(Map.of("cambricon.com/numa-bind", "true"))).isFalse();
        assertThat(grantedIds(fit(List.of(idle(MLU0), idle(otherNuma)), two, Map.of())))
                .containsExactly(otherNuma.id(), MLU0.id());
    }

    private static Arguments reasonCase(String reason, DeviceUsage device, ContainerRequest request, String policy) {
        return Arguments.of(reason, device, request, policy);
    }

    static final List<Arguments> REASONS = List.of(
            reasonCase("CardNotHealth", idle(MLU0.withHealth(false)), HALF, "spread"),
            reasonCase("CardTypeMismatch", idle(MLU0), new ContainerRequest(1, "NVIDIA", 0, 100, 0), "spread"),
            reasonCase("CardTimeSlicingExhausted", used(withCapacity(MLU0, 1, 100), 1, 0, 0), HALF, "spread"),
            reasonCase("ExclusiveDeviceAllocateConflict", used(MLU0, 1, 0, 0), HALF, "mutex"),
            reasonCase("CardInsufficientMemory", used(MLU0, 1, 24000, 0), HALF, "spread"),
            reasonCase("CardInsufficientCore", used(MLU0, 1, 0, 60), HALF, "spread"),
            reasonCase(
                    "CardComputeUnitsExhausted",
                    used(MLU0, 1, 0, 100),
                    new ContainerRequest(1, "MLU", 1024, 0, 0),
                    "spread"),
            reasonCase(
                    "AllocatedCardsInsufficientRequest",
                    idle(MLU0),
                    new ContainerRequest(2, "MLU", 1024, 0, 10),
                    "spread"));

    @ParameterizedTest(name = "{0}")
    @FieldSource("REASONS")
    void eachReasonIsReachable(String reason, DeviceUsage device, ContainerRequest request, String policy) {
        var context = new FitContext(Map.of(), Map.of(), policy, List.of());
        assertThat(reason(BACKEND.fit(List.of(device), request, context))).isEqualTo("1/1 " + reason);
    }

    @Test
    void cardUuidMismatchIsReachable() {
        assertThat(reason(fit(List.of(idle(MLU0)), HALF, Map.of("cambricon.com/nouse-gpuuuid", MLU0.id()))))
                .isEqualTo("1/1 CardUuidMismatch");
    }
}
