package io.hami.backend.mthreads;

import static io.hami.protocol.testing.KubeFixtures.container;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.ContainerRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** docs/upstream.md#requests, Moore Threads: totals divided by the count. */
class MthreadsRequestsTest {
    private static final String COUNT = "mthreads.com/vgpu";
    private static final String MEM = "mthreads.com/sgpu-memory";
    private static final String CORES = "mthreads.com/sgpu-core";
    private static final ContainerRequest NONE = ContainerRequest.none("Mthreads");

    private static ContainerRequest req(int nums, int mem, int pct, int cores) {
        return new ContainerRequest(nums, "Mthreads", mem, pct, cores);
    }

    static final List<Arguments> CASES = List.of(
            Arguments.of(Map.of(COUNT, "1"), req(1, 0, 100, 0)),
            Arguments.of(Map.of(COUNT, "1", MEM, "96", CORES, "16"), req(1, 49152, 0, 16)),
            Arguments.of(Map.of(COUNT, "2", MEM, "8", CORES, "32"), req(2, 2048, 0, 16)),
            Arguments.of(Map.of(COUNT, "3", MEM, "1", CORES, "16"), req(3, 170, 0, 5)),
            Arguments.of(Map.of(COUNT, "1", CORES, "1.5"), req(1, 0, 100, 0)),
            Arguments.of(
                    Map.of(COUNT, "1", MEM, Integer.toString(Integer.MAX_VALUE / 512)),
                    req(1, Integer.MAX_VALUE / 512 * 512, 0, 0)),
            Arguments.of(Map.of(COUNT, "1", MEM, Integer.toString(Integer.MAX_VALUE / 512 + 1)), NONE),
            Arguments.of(Map.of(COUNT, "1", MEM, "-2"), NONE),
            Arguments.of(Map.of(COUNT, "1", MEM, "1.5"), NONE),
            Arguments.of(Map.of(COUNT, "0"), NONE),
            Arguments.of(Map.of(COUNT, "-1"), NONE),
            Arguments.of(Map.of(COUNT, "2147483648"), NONE),
            Arguments.of(Map.of(MEM, "8"), NONE));

    @ParameterizedTest(name = "{0} -> {1}")
    @FieldSource("CASES")
    void defaultConfig(Map<String, String> limits, ContainerRequest expected) {
        assertThat(new MthreadsBackend(MthreadsConfig.DEFAULTS).request(container(limits)))
                .isEqualTo(expected);
    }
}
