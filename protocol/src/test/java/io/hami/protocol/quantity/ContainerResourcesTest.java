package io.hami.protocol.quantity;

import static io.hami.protocol.testing.KubeFixtures.container;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerResourcesTest {
    private static final String GPU = "example.com/gpu";

    @Test
    void limitsWinOverRequests() {
        var c = container(Map.of(GPU, "2"), Map.of(GPU, "3"));
        assertThat(ContainerResources.read(c, GPU)).isEqualTo(new ResourceAmount.Int64(2));
    }

    @Test
    void requestsAreReadWhenLimitsLackTheResource() {
        var c = container(Map.of("cpu", "1"), Map.of(GPU, "3"));
        assertThat(ContainerResources.read(c, GPU)).isEqualTo(new ResourceAmount.Int64(3));
    }

    @Test
    void absentEverywhereIsAbsent() {
        var c = container(Map.of("cpu", "1"), Map.of("memory", "1Gi"));
        assertThat(ContainerResources.read(c, GPU)).isEqualTo(new ResourceAmount.Absent());
        assertThat(ContainerResources.read(c, GPU).present()).isFalse();
    }

    @Test
    void anEmptyResourceNameIsNeverPresent() {
        var c = container(Map.of("", "1"));
        assertThat(ContainerResources.read(c, "")).isEqualTo(new ResourceAmount.Absent());
    }

    @Test
    void aContainerWithoutResourcesHasNothing() {
        var c = new ContainerBuilder().withName("bare").build();
        assertThat(ContainerResources.read(c, GPU)).isEqualTo(new ResourceAmount.Absent());
    }

    @Test
    void theOriginalTextIsReadNotFabric8sNumber() {
        var c = container(Map.of("example.com/mem", "16.0Gi", "example.com/cores", "16Gi"));
        assertThat(ContainerResources.read(c, "example.com/mem")).isEqualTo(new ResourceAmount.NotInt64("16.0Gi"));
        assertThat(ContainerResources.read(c, "example.com/cores").int64()).hasValue(17179869184L);
    }

    @Test
    void aQuantityMadeFromAmountAndFormatReadsAsTheirConcatenation() {
        assertThat(ResourceAmount.of(new Quantity("1", "Ki"))).isEqualTo(new ResourceAmount.Int64(1024));
        assertThat(ResourceAmount.of(new Quantity("5", null))).isEqualTo(new ResourceAmount.Int64(5));
    }

    @Test
    void invalidTextIsInvalidWithTheParserMessage() {
        var amount = ResourceAmount.of("1x");
        assertThat(amount).isInstanceOf(ResourceAmount.Invalid.class);
        assertThat(((ResourceAmount.Invalid) amount).reason())
                .startsWith("invalid quantity \"1x\": quantities must match");
        assertThat(amount.present()).isTrue();
        assertThat(amount.int64()).isEmpty();
    }

    @Test
    void clampedIntKeepsHugeValuesHugeInsteadOfWrapping() {
        assertThat(ResourceAmount.of("4294967346").clampedInt()).hasValue(Integer.MAX_VALUE);
        assertThat(ResourceAmount.of("-4294967346").clampedInt()).hasValue(Integer.MIN_VALUE);
        assertThat(ResourceAmount.of("30").clampedInt()).hasValue(30);
        assertThat(ResourceAmount.of("1.5").clampedInt()).isEmpty();
    }
}
