package io.hami.backend.nvidia;

import static io.hami.protocol.testing.KubeFixtures.container;
import static org.assertj.core.api.Assertions.assertThat;

import io.hami.protocol.device.ContainerRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;

/** docs/upstream.md#requests, NVIDIA. */
class NvidiaRequestsTest {
    private static final String GPU = "nvidia.com/gpu";
    private static final String MEM = "nvidia.com/gpumem";
    private static final String PCT = "nvidia.com/gpumem-percentage";
    private static final String CORES = "nvidia.com/gpucores";

    private static ContainerRequest req(int nums, int mem, int pct, int cores) {
        return new ContainerRequest(nums, "NVIDIA", mem, pct, cores);
    }

    private static final ContainerRequest NONE = ContainerRequest.none("NVIDIA");

    static final List<Arguments> DEFAULT_CONFIG = List.of(
            // the examples of docs/upstream.md#requests
            Arguments.of(Map.of(GPU, "1"), req(1, 0, 100, 0)),
            Arguments.of(Map.of(GPU, "2", MEM, "4096"), req(2, 4096, 101, 0)),
            Arguments.of(Map.of(GPU, "1", PCT, "0", MEM, "2000"), req(1, 2000, 101, 0)),
            // percentage
            Arguments.of(Map.of(GPU, "1", PCT, "50"), req(1, 0, 50, 0)),
            Arguments.of(Map.of(GPU, "1", PCT, "150"), req(1, 0, 100, 0)),
            Arguments.of(Map.of(GPU, "1", PCT, "4294967346"), req(1, 0, 100, 0)),
            Arguments.of(Map.of(GPU, "1", PCT, "-5"), req(1, 0, 100, 0)),
            Arguments.of(Map.of(GPU, "1", PCT, "50.5"), req(1, 0, 100, 0)),
            Arguments.of(Map.of(GPU, "1", PCT, "40", MEM, "1000"), req(1, 1000, 40, 0)),
            // cores: parsed values are taken as they are (the fit clamps), unusable ones ignored
            Arguments.of(Map.of(GPU, "1", CORES, "30"), req(1, 0, 100, 30)),
            Arguments.of(Map.of(GPU, "1", CORES, "130"), req(1, 0, 100, 130)),
            Arguments.of(Map.of(GPU, "1", CORES, "4294967346"), req(1, 0, 100, Integer.MAX_VALUE)),
            Arguments.of(Map.of(GPU, "1", CORES, "0.5"), req(1, 0, 100, 0)),
            // memory: zero is fine, anything unusable rejects the whole request
            Arguments.of(Map.of(GPU, "1", MEM, "0"), req(1, 0, 100, 0)),
            Arguments.of(Map.of(GPU, "1", MEM, "2147483647"), req(1, Integer.MAX_VALUE, 101, 0)),
            Arguments.of(Map.of(GPU, "1", MEM, "2147483648"), NONE),
            Arguments.of(Map.of(GPU, "1", MEM, "16Gi"), NONE),
            Arguments.of(Map.of(GPU, "1", MEM, "16.0Gi"), NONE),
            Arguments.of(Map.of(GPU, "1", MEM, "-1"), NONE),
            Arguments.of(Map.of(GPU, "1", MEM, "1000m"), NONE),
            // count
            Arguments.of(Map.of(MEM, "1000"), NONE),
            Arguments.of(Map.of(GPU, "0"), NONE),
            Arguments.of(Map.of(GPU, "-1"), NONE),
            Arguments.of(Map.of(GPU, "1.5"), NONE),
            Arguments.of(Map.of(GPU, "1000m"), NONE),
            Arguments.of(Map.of(GPU, "2147483648"), NONE),
            Arguments.of(Map.of(GPU, "3", CORES, "20"), req(3, 0, 100, 20)));

    @ParameterizedTest(name = "{0} -> {1}")
    @FieldSource("DEFAULT_CONFIG")
    void defaultConfig(Map<String, String> limits, ContainerRequest expected) {
        var backend = new NvidiaBackend(NvidiaConfig.DEFAULTS);
        assertThat(backend.request(container(limits))).isEqualTo(expected);
    }

    @Test
    void requestsAreReadWhenLimitsLackAResource() {
        var backend = new NvidiaBackend(NvidiaConfig.DEFAULTS);
        var c = container(Map.of(GPU, "1"), Map.of(GPU, "4", MEM, "3000"));
        assertThat(backend.request(c)).isEqualTo(req(1, 3000, 101, 0));
    }

    private static NvidiaConfig config(int defaultMemory, int defaultCores, int memoryFactor) {
        var d = NvidiaConfig.DEFAULTS;
        var q = d.requests();
        return new NvidiaConfig(
                d.resources(),
                new NvidiaConfig.Requests(
                        q.overwriteEnv(), defaultMemory, defaultCores, q.defaultGPUNum(), memoryFactor),
                d.isolation(),
                d.node());
    }

    @Test
    void defaultMemoryReplacesAWholeCardButKeepsNoPercentage() {
        var backend = new NvidiaBackend(config(1024, 0, 1));
        assertThat(backend.request(container(Map.of(GPU, "1")))).isEqualTo(req(1, 1024, 101, 0));
        assertThat(backend.request(container(Map.of(GPU, "1", PCT, "30")))).isEqualTo(req(1, 0, 30, 0));
    }

    @Test
    void defaultCoresApplyUnlessCoresAreRequested() {
        var backend = new NvidiaBackend(config(0, 25, 1));
        assertThat(backend.request(container(Map.of(GPU, "1")))).isEqualTo(req(1, 0, 100, 25));
        assertThat(backend.request(container(Map.of(GPU, "1", CORES, "60")))).isEqualTo(req(1, 0, 100, 60));
        assertThat(backend.request(container(Map.of(GPU, "1", CORES, "6.5")))).isEqualTo(req(1, 0, 100, 25));
    }

    @Test
    void theMemoryFactorMultipliesAndBoundsMemory() {
        var backend = new NvidiaBackend(config(0, 0, 4));
        assertThat(backend.request(container(Map.of(GPU, "1", MEM, "1000")))).isEqualTo(req(1, 4000, 101, 0));
        assertThat(backend.request(container(Map.of(GPU, "1", MEM, Integer.toString(Integer.MAX_VALUE / 4)))))
                .isEqualTo(req(1, Integer.MAX_VALUE / 4 * 4, 101, 0));
        assertThat(backend.request(container(Map.of(GPU, "1", MEM, Integer.toString(Integer.MAX_VALUE / 4 + 1)))))
                .isEqualTo(NONE);
    }
}
