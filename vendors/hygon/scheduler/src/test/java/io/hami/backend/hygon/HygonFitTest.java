package io.hami.backend.hygon;

import static io.hami.protocol.testing.FitFixtures.device;
import static io.hami.protocol.testing.FitFixtures.grantedIds;
import static io.hami.protocol.testing.FitFixtures.idle;
import static io.hami.protocol.testing.FitFixtures.onNuma;
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

/** docs/upstream.md#fit with Hygon's rules. */
class HygonFitTest {
    private static final HygonBackend BACKEND = new HygonBackend(HygonConfig.DEFAULTS);
    private static final DeviceInfo K100 = device("HCU-k", "HCU-K100", 0, 65536);
    private static final DeviceInfo Z100 = device("HCU-z", "HCU-Z100L", 1, 32768);
    private static final ContainerRequest SMALL = new ContainerRequest(1, "HCU", 1024, 0, 10);

    private static FitResult fit(List<DeviceUsage> devices, ContainerRequest request, Map<String, String> pod) {
        return BACKEND.fit(devices, request, FitContext.of(pod));
    }

    @Test
    void aContainerFitsOnTheDiscoveredNode() {
        var node = node("h1", Map.of("hami.io/node-hcu-register", "HCU-k,10,65536,100,HCU-K100,0,true,0,hami-core:"));
        var devices = ((Discovery.Found) BACKEND.discover(node))
                .devices().stream().map(DeviceUsage::idle).toList();
        var request = BACKEND.request(
                container(Map.of("hygon.com/hcunum", "1", "hygon.com/hcumem", "8192", "hygon.com/hcucores", "25")));
        assertThat(((FitResult.Fits) fit(devices, request, Map.of())).grants())
                .extracting(FitResult.Grant::entry)
                .containsExactly(new ContainerDevice("HCU-k", "HCU", 8192, 25));
    }

    @Test
    void hcuTypeSelectorsAreCaseInsensitiveSubstrings() {
        var both = List.of(idle(K100), idle(Z100));
        assertThat(grantedIds(fit(both, SMALL, Map.of("hygon.com/use-hcutype", "k100"))))
                .containsExactly("HCU-k");
        assertThat(grantedIds(fit(both, SMALL, Map.of("hygon.com/nouse-hcutype", "z100"))))
                .containsExactly("HCU-k");
        assertThat(grantedIds(fit(both, SMALL, Map.of("hygon.com/use-dcutype", "k100"))))
                .containsExactly("HCU-z");
    }

    @Test
    void uuidSelectorsAreExact() {
        var both = List.of(idle(K100), idle(Z100));
        assertThat(grantedIds(fit(both, SMALL, Map.of("hygon.com/use-gpuuuid", "HCU-k"))))
                .containsExactly("HCU-k");
        assertThat(reason(fit(both, SMALL, Map.of("hygon.com/use-gpuuuid", "HCU"))))
                .isEqualTo("2/2 CardUuidMismatch");
    }

    @Test
    void aWholeCardByDefaultNeedsAnUnusedCard() {
        var wholeCard = BACKEND.request(container(Map.of("hygon.com/hcunum", "1")));
        assertThat(reason(fit(List.of(used(K100, 1, 0, 0)), wholeCard, Map.of())))
                .isEqualTo("1/1 ExclusiveDeviceAllocateConflict");
    }

    @Test
    void devicesOfOneRequestMayBeOnDifferentNumaNodes() {
        var two = new ContainerRequest(2, "HCU", 1024, 0, 10);
        var list = List.of(idle(K100), idle(onNuma(Z100, 1)));
        assertThat(BACKEND.numaBind(Map.of("hygon.com/numa-bind", "true"))).isFalse();
        assertThat(grantedIds(fit(list, two, Map.of()))).containsExactly("HCU-z", "HCU-k");
    }

    private static Arguments reasonCase(
            String reason, DeviceUsage device, ContainerRequest request, Map<String, String> pod, String policy) {
        return Arguments.of(reason, device, request, pod, policy);
    }

    static final List<Arguments> REASONS = List.of(
            reasonCase("CardNotHealth", idle(K100.withHealth(false)), SMALL, Map.of(), "spread"),
            reasonCase("CardTypeMismatch", idle(K100), SMALL, Map.of("hygon.com/use-hcutype", "Z100"), "spread"),
            reasonCase("CardUuidMismatch", idle(K100), SMALL, Map.of("hygon.com/nouse-gpuuuid", "HCU-k"), "spread"),
            reasonCase(
                    "CardTimeSlicingExhausted", used(withCapacity(K100, 3, 100), 3, 0, 0), SMALL, Map.of(), "spread"),
            reasonCase("ExclusiveDeviceAllocateConflict", used(K100, 1, 0, 0), SMALL, Map.of(), "spread,mutex"),
            reasonCase("CardInsufficientMemory", used(K100, 1, 65000, 0), SMALL, Map.of(), "spread"),
            reasonCase("CardInsufficientCore", used(K100, 1, 0, 95), SMALL, Map.of(), "spread"),
            reasonCase(
                    "CardComputeUnitsExhausted",
                    used(K100, 1, 0, 100),
                    new ContainerRequest(1, "HCU", 1024, 0, 0),
                    Map.of(),
                    "spread"),
            reasonCase(
                    "AllocatedCardsInsufficientRequest",
                    idle(K100),
                    new ContainerRequest(2, "HCU", 1024, 0, 10),
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
