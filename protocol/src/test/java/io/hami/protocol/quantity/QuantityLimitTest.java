package io.hami.protocol.quantity;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

class QuantityLimitTest {
    static final QuantityLimit CORES = new QuantityLimit("example.com/cores", 100, "percent of a device");

    static Container limits(String value) {
        return new ContainerBuilder()
                .withName("c")
                .withNewResources()
                .addToLimits(CORES.resource(), new Quantity(value))
                .endResources()
                .build();
    }

    @Test
    void wholeNumbersFromZeroToTheMaximumPass() {
        for (String ok : new String[] {"0", "1", "100", "0.1k", "1e2"}) {
            assertThat(CORES.refusal(limits(ok), "X")).as(ok).isEmpty();
        }
        assertThat(CORES.refusal(new ContainerBuilder().withName("c").build(), "X"))
                .isEmpty();
        assertThat(new QuantityLimit("", 1, "u").refusal(limits("5"), "X")).isEmpty();
    }

    @Test
    void anythingElseIsRefusedNamingTheContainerResourceAndRange() {
        assertThat(CORES.refusal(limits("101"), "X"))
                .contains(
                        "container c: example.com/cores \"101\" is out of range; X takes a whole number from 0 to 100 (percent of a device)");
        assertThat(CORES.refusal(limits("-1"), "X"))
                .hasValueSatisfying(m -> assertThat(m).contains("\"-1\" is out of range"));
        assertThat(CORES.refusal(limits("1Ki"), "X"))
                .hasValueSatisfying(m -> assertThat(m).contains("\"1Ki\" (1024) is out of range"));
        assertThat(CORES.refusal(limits("500m"), "X"))
                .hasValueSatisfying(m -> assertThat(m).contains("\"500m\" is not a whole number"));
        assertThat(CORES.refusal(limits("1x"), "X"))
                .hasValueSatisfying(m -> assertThat(m).contains("\"1x\" is not a quantity"));
    }

    @Test
    void requestsAreReadWhenLimitsDoNotNameTheResource() {
        var c = new ContainerBuilder()
                .withName("c")
                .withNewResources()
                .addToRequests(CORES.resource(), new Quantity("2Ki"))
                .endResources()
                .build();
        assertThat(CORES.refusal(c, "X"))
                .hasValueSatisfying(m -> assertThat(m).contains("\"2Ki\" (2048) is out of range"));
    }
}
