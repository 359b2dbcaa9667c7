package io.hami.backend.hygon;

import static io.hami.protocol.testing.KubeFixtures.container;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.ContainerRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** docs/upstream.md#requests, Hygon, with the HCU resource names. */
class HygonRequestsTest {
    private static final String COUNT = "hygon.com/hcunum";
    private static final String MEM = "hygon.com/hcumem";
    private static final String CORES = "hygon.com/hcucores";
    private static final ContainerRequest NONE = ContainerRequest.none("HCU");

    private static ContainerRequest req(int nums, int mem, int pct, int cores) {
        return new ContainerRequest(nums, "HCU", mem, pct, cores);
    }

    static final List<Arguments> CASES = List.of(
            Arguments.of(Map.of(COUNT, "1"), req(1, 0, 100, 100)),
            Arguments.of(Map.of(COUNT, "2", MEM, "4096", CORES, "30"), req(2, 4096, 0, 30)),
            Arguments.of(Map.of(COUNT, "1", MEM, "0"), req(1, 0, 100, 100)),
            // unlike the other vendors, memory that is not an integer is ignored: a whole card
            Arguments.of(Map.of(COUNT, "1", MEM, "16.0Gi"), req(1, 0, 100, 100)),
            Arguments.of(Map.of(COUNT, "1", MEM, "1000m"), req(1, 0, 100, 100)),
            Arguments.of(Map.of(COUNT, "1", MEM, "2147483647"), req(1, Integer.MAX_VALUE, 0, 100)),
            Arguments.of(Map.of(COUNT, "1", MEM, "2147483648"), NONE),
            Arguments.of(Map.of(COUNT, "1", MEM, "-1"), NONE),
            Arguments.of(Map.of(COUNT, "1", CORES, "130"), req(1, 0, 100, 130)),
            Arguments.of(Map.of(COUNT, "1", CORES, "0"), req(1, 0, 100, 0)),
            Arguments.of(Map.of(COUNT, "1", CORES, "-1"), NONE),
            Arguments.of(Map.of(COUNT, "1", CORES, "2147483648"), NONE),
            Arguments.of(Map.of(COUNT, "1", CORES, "1.5"), req(1, 0, 100, 100)),
            Arguments.of(Map.of(COUNT, "0"), NONE),
            Arguments.of(Map.of(COUNT, "-2"), NONE),
            Arguments.of(Map.of(COUNT, "2147483648"), NONE),
            Arguments.of(Map.of(COUNT, "1.5"), NONE),
            Arguments.of(Map.of("hygon.com/dcunum", "1"), NONE));

    @ParameterizedTest(name = "{0} -> {1}")
    @FieldSource("CASES")
    void defaultConfig(Map<String, String> limits, ContainerRequest expected) {
        assertThat(new HygonBackend(HygonConfig.DEFAULTS).request(container(limits)))
                .isEqualTo(expected);
    }

    @Test
    void theMemoryFactorMultipliesAndMustStayAnInt32() {
        var d = HygonConfig.DEFAULTS;
        var backend = new HygonBackend(
                new HygonConfig(d.resourceCountName(), d.resourceMemoryName(), d.resourceCoreName(), 2));
        assertThat(backend.request(container(Map.of(COUNT, "1", MEM, "1000")))).isEqualTo(req(1, 2000, 0, 100));
        assertThat(backend.request(container(Map.of(COUNT, "1", MEM, "1073741823"))))
                .isEqualTo(req(1, 2147483646, 0, 100));
        assertThat(backend.request(container(Map.of(COUNT, "1", MEM, "1073741824"))))
                .isEqualTo(NONE);
    }

    @Test
    void requestsAreReadWhenLimitsLackAResource() {
        var c = container(Map.of(COUNT, "1"), Map.of(MEM, "2048"));
        assertThat(new HygonBackend(HygonConfig.DEFAULTS).request(c)).isEqualTo(req(1, 2048, 0, 100));
    }
}
