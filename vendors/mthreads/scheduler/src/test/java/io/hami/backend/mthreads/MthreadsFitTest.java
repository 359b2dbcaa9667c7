package io.hami.backend.mthreads;

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

/** docs/upstream.md#fit with Moore Threads' rules. */
class MthreadsFitTest {
    private static final MthreadsBackend BACKEND = new MthreadsBackend(MthreadsConfig.DEFAULTS);
    private static final DeviceInfo GPU0 = new DeviceInfo("n-mthreads-0", 0, 100, 49152, 16, "Mthreads", 0, "", true);
    private static final DeviceInfo GPU1 = new DeviceInfo("n-mthreads-1", 1, 100, 49152, 16, "Mthreads", 0, "", true);
    private static final ContainerRequest SMALL = new ContainerRequest(1, "Mthreads", 1024, 0, 4);

    private static FitResult fit(List<DeviceUsage> devices, ContainerRequest request, FitContext context) {
        return BACKEND.fit(devices, request, context);
    }

    private static FitContext pod(Map<String, String> annotations) {
        return FitContext.of(annotations);
    }

    @Test
    void aContainerFitsOnDevicesDiscoveredFromCapacity() {
        var node = node(
                "n", Map.of(), Map.of("mthreads.com/sgpu-core", "32", "mthreads.com/sgpu-memory", "192"), Map.of());
        var devices = ((Discovery.Found) BACKEND.discover(node))
                .devices().stream().map(DeviceUsage::idle).toList();
        var request = BACKEND.request(container(
                Map.of("mthreads.com/vgpu", "1", "mthreads.com/sgpu-memory", "16", "mthreads.com/sgpu-core", "4")));
        assertThat(((FitResult.Fits) fit(devices, request, pod(Map.of()))).grants())
                .extracting(FitResult.Grant::entry)
                .containsExactly(new ContainerDevice("n-mthreads-1", "Mthreads", 8192, 4));
    }

    @Test
    void laterContainersOfAPodStayOnTheGpuOfTheEarlierOnes() {
        var earlier = List.of(new ContainerDevice(GPU0.id(), "Mthreads", 1024, 4));
        var context = new FitContext(Map.of(), Map.of(), "spread", earlier);
        assertThat(grantedIds(fit(List.of(idle(GPU0), idle(GPU1)), SMALL, context)))
                .containsExactly(GPU0.id());
        assertThat(reason(fit(List.of(idle(GPU1)), SMALL, context))).isEqualTo("1/1 CardNotFoundCustomFilterRule");
    }

    @Test
    void theDeviceTypeMustContainTheKeywordCaseSensitively() {
        var lower = new DeviceInfo("x", 0, 100, 49152, 16, "mthreads-s4000", 0, "", true);
        var prefixed = new DeviceInfo("y", 1, 100, 49152, 16, "Mthreads-S4000", 0, "", true);
        assertThat(reason(fit(List.of(idle(lower)), SMALL, pod(Map.of())))).isEqualTo("1/1 CardTypeMismatch");
        assertThat(grantedIds(fit(List.of(idle(prefixed)), SMALL, pod(Map.of()))))
                .containsExactly("y");
    }

    @Test
    void theWholeCardRuleNeverFiresOnSixteenCoreGpus() {
        var hundredCores = new ContainerRequest(1, "Mthreads", 1024, 0, 100);
        assertThat(reason(fit(List.of(used(GPU0, 1, 0, 0)), hundredCores, pod(Map.of()))))
                .isEqualTo("1/1 CardInsufficientCore");
    }

    @Test
    void uuidSelectorsUseTheMthreadsAiDomain() {
        var both = List.of(idle(GPU0), idle(GPU1));
        assertThat(grantedIds(fit(both, SMALL, pod(Map.of("mthreads.ai/use-gpuuuid", GPU0.id())))))
                .containsExactly(GPU0.id());
        assertThat(grantedIds(fit(both, SMALL, pod(Map.of("mthreads.com/use-gpuuuid", GPU0.id())))))
                .containsExactly(GPU1.id());
    }

    private static Arguments reasonCase(
            String reason, DeviceUsage device, ContainerRequest request, FitContext context) {
        return Arguments.of(reason, device, request, context);
    }

    static final List<Arguments> REASONS = List.of(
            reasonCase("CardNotHealth", idle(GPU0.withHealth(false)), SMALL, FitContext.of(Map.of())),
            reasonCase(
                    "CardTypeMismatch", idle(GPU0), new ContainerRequest(1, "MLU", 0, 100, 0), FitContext.of(Map.of())),
            reasonCase(
                    "CardUuidMismatch",
                    idle(GPU0),
                    SMALL,
                    FitContext.of(Map.of("mthreads.ai/nouse-gpuuuid", GPU0.id()))),
            reasonCase(
                    "CardTimeSlicingExhausted",
                    used(withCapacity(GPU0, 1, 16), 1, 0, 0),
                    SMALL,
                    FitContext.of(Map.of())),
            reasonCase(
                    "ExclusiveDeviceAllocateConflict",
                    used(GPU0, 1, 0, 0),
                    SMALL,
                    new FitContext(Map.of(), Map.of(), "mutex", List.of())),
            reasonCase("CardInsufficientMemory", used(GPU0, 1, 49000, 0), SMALL, FitContext.of(Map.of())),
            reasonCase("CardInsufficientCore", used(GPU0, 1, 0, 14), SMALL, FitContext.of(Map.of())),
            reasonCase(
                    "CardComputeUnitsExhausted",
                    used(GPU0, 1, 0, 16),
                    new ContainerRequest(1, "Mthreads", 1024, 0, 0),
                    FitContext.of(Map.of())),
            reasonCase(
                    "CardNotFoundCustomFilterRule",
                    idle(GPU0),
                    SMALL,
                    new FitContext(
                            Map.of(),
                            Map.of(),
                            "spread",
                            List.of(new ContainerDevice(GPU1.id(), "Mthreads", 1024, 4)))),
            reasonCase(
                    "AllocatedCardsInsufficientRequest",
                    idle(GPU0),
                    new ContainerRequest(2, "Mthreads", 1024, 0, 4),
                    FitContext.of(Map.of())));

    @ParameterizedTest(name = "{0}")
    @FieldSource("REASONS")
    void eachReasonIsReachable(String reason, DeviceUsage device, ContainerRequest request, FitContext context) {
        assertThat(reason(BACKEND.fit(List.of(device), request, context))).isEqualTo("1/1 " + reason);
    }
}
