package io.hami.backend.cambricon;

import static io.hami.protocol.testing.KubeFixtures.container;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.ContainerRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** docs/upstream.md#requests, Cambricon. */
class CambriconRequestsTest {
    private static final String COUNT = "cambricon.com/vmlu";
    private static final String MEM = "cambricon.com/mlu.smlu.vmemory";
    private static final String CORES = "cambricon.com/mlu.smlu.vcore";
    private static final ContainerRequest NONE = ContainerRequest.none("MLU");

    private static ContainerRequest req(int nums, int mem, int pct, int cores) {
        return new ContainerRequest(nums, "MLU", mem, pct, cores);
    }

    static final List<Arguments> CASES = List.of(
            Arguments.of(Map.of(COUNT, "1"), req(1, 0, 100, 100)),
            Arguments.of(Map.of(COUNT, "2", MEM, "4"), req(2, 1024, 0, 100)),
            Arguments.of(Map.of(COUNT, "1", MEM, "0"), req(1, 0, 100, 100)),
            Arguments.of(Map.of(COUNT, "1", CORES, "30"), req(1, 0, 100, 30)),
            Arguments.of(Map.of(COUNT, "1", CORES, "30.5"), req(1, 0, 100, 100)),
            Arguments.of(
                    Map.of(COUNT, "1", MEM, Integer.toString(Integer.MAX_VALUE / 256)),
                    req(1, Integer.MAX_VALUE / 256 * 256, 0, 100)),
            Arguments.of(Map.of(COUNT, "1", MEM, Integer.toString(Integer.MAX_VALUE / 256 + 1)), NONE),
            Arguments.of(Map.of(COUNT, "1", MEM, "-1"), NONE),
            Arguments.of(Map.of(COUNT, "1", MEM, "1.5"), NONE),
            Arguments.of(Map.of(COUNT, "1", MEM, "4Ki"), req(1, 4096 * 256, 0, 100)),
            Arguments.of(Map.of(MEM, "4"), NONE),
            Arguments.of(Map.of(COUNT, "0"), NONE),
            Arguments.of(Map.of(COUNT, "1.0"), NONE));

    @ParameterizedTest(name = "{0} -> {1}")
    @FieldSource("CASES")
    void defaultConfig(Map<String, String> limits, ContainerRequest expected) {
        assertThat(new CambriconBackend(CambriconConfig.DEFAULTS).request(container(limits)))
                .isEqualTo(expected);
    }

    @Test
    void requestsAreReadWhenLimitsLackAResource() {
        var c = container(Map.of(COUNT, "1"), Map.of(COUNT, "3", MEM, "2"));
        assertThat(new CambriconBackend(CambriconConfig.DEFAULTS).request(c)).isEqualTo(req(1, 512, 0, 100));
    }
}
