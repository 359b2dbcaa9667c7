package io.hami.backend.nvidia;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.protocol.codec.RegisterCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.Admission;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.ResourceNames;
import io.hami.protocol.spi.VendorKeys;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NvidiaBackendTest {
    private final NvidiaBackend backend = new NvidiaBackend(NvidiaConfig.DEFAULTS);

    @Test
    void isFoundByServiceLoader() {
        var found = DeviceBackends.load(DeviceConfig.DEFAULTS).byVendor("NVIDIA");
        assertThat(found).get().isInstanceOf(NvidiaBackend.class);
    }

    @Test
    void ownsTheKeysOfDecisionD1() {
        assertThat(backend.vendor()).isEqualTo("NVIDIA");
        assertThat(backend.keys())
                .isEqualTo(new VendorKeys(
                        Optional.of("hami.io/node-nvidia-register"),
                        Optional.of(RegisterCodec.JSON),
                        Optional.of("hami.io/node-handshake"),
                        "hami.io/vgpu-devices-to-allocate",
                        "hami.io/vgpu-devices-allocated"));
    }

    @Test
    void readsTheConfiguredResourceNames() {
        assertThat(backend.resources())
                .isEqualTo(new ResourceNames(
                        "nvidia.com/gpu",
                        "nvidia.com/gpumem",
                        Optional.of("nvidia.com/gpumem-percentage"),
                        "nvidia.com/gpucores"));
    }

    @Test
    void anEmptyPercentageNameIsNoPercentageResource() {
        var c = NvidiaConfig.DEFAULTS;
        var r = c.resources();
        var config = new NvidiaConfig(
                new NvidiaConfig.Resources(
                        r.resourceCountName(),
                        r.resourceMemoryName(),
                        "",
                        r.resourceCoreName(),
                        r.resourcePriorityName()),
                c.requests(),
                c.isolation(),
                c.node());
        assertThat(new NvidiaBackend(config).resources().memoryPercentage()).isEmpty();
    }

    @Test
    void theConfiguredRuntimeClassIsAskedForOnlyForContainersThatRequestNvidia() {
        var c = NvidiaConfig.DEFAULTS;
        var withClass = new NvidiaBackend(new NvidiaConfig(
                c.resources(),
                c.requests(),
                new NvidiaConfig.Isolation(
                        c.isolation().disableCoreLimit(), c.isolation().gpuCorePolicy(), "nvidia"),
                c.node()));
        assertThat(withClass.admit(container("nvidia.com/gpumem", "2000")))
                .isInstanceOfSatisfying(
                        Admission.Accepted.class,
                        a -> assertThat(a.runtimeClassName()).isEqualTo("nvidia"));
        assertThat(withClass.admit(container("cpu", "1")))
                .isInstanceOfSatisfying(
                        Admission.Accepted.class,
                        a -> assertThat(a.runtimeClassName()).isEmpty());
        assertThat(backend.admit(container("nvidia.com/gpu", "1")))
                .isInstanceOfSatisfying(
                        Admission.Accepted.class,
                        a -> assertThat(a.runtimeClassName()).isEmpty());
    }

    private static Container container(String resource, String amount) {
        return new ContainerBuilder()
                .withName("c")
                .withNewResources()
                .addToLimits(resource, new Quantity(amount))
                .endResources()
                .build();
    }

    /** Go's strconv.ParseBool; anything it rejects counts as false. */
    @ParameterizedTest
    @ValueSource(strings = {"1", "t", "T", "TRUE", "true", "True"})
    void numaBindAcceptsGoTrueSpellings(String value) {
        assertThat(backend.numaBind(Map.of("nvidia.com/numa-bind", value))).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "false", "yes", "on", "tRUE", " true", ""})
    void numaBindIsFalseOtherwise(String value) {
        assertThat(backend.numaBind(Map.of("nvidia.com/numa-bind", value))).isFalse();
    }

    @Test
    void numaBindIsOffWithoutTheAnnotation() {
        assertThat(backend.numaBind(Map.of())).isFalse();
    }
}
