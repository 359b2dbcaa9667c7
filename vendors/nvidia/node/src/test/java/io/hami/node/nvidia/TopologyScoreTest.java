package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.plugin.PluginApp;
import io.hami.plugin.config.DeviceFilter;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.testing.MockVendor;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.PluginRun;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code hami.io/node-nvidia-score} as the NVIDIA plugin publishes it on the embedded API server, from the NVML mock's
 * NVLinks and NUMA nodes: exactly upstream's JSON when on, nothing when off, never a hidden GPU.
 */
class TopologyScoreTest {
    static final String GPU0 = "GPU-bbbbbbbb-0000-4000-8000-000000000000";
    static final String GPU1 = "GPU-bbbbbbbb-0000-4000-8000-000000000001";
    static final String GPU2 = "GPU-bbbbbbbb-0000-4000-8000-000000000002";
    static final String GPU3 = "GPU-bbbbbbbb-0000-4000-8000-000000000003";
    static final Duration WAIT = Patience.seconds(15);
    /**
     * GPU 0 and 1: 12 NVLinks between them on NUMA node 0. GPU 2 on node 1 lists 2 NVLinks to GPU 1 that GPU 1 does
     * not: asymmetric. GPU 3 (hidden by filterdevices) has 6 NVLinks with GPU 0.
     */
    static final String DEVICES = """
            {"devices": [
              {"uuid": "%1$s", "name": "NVIDIA A100-SXM4-80GB", "memoryMiB": 81920, "numaNode": 0,
               "pciBusId": "00000000:07:00.0", "nvlinks": {"%2$s": 12, "%4$s": 6}},
              {"uuid": "%2$s", "name": "NVIDIA A100-SXM4-80GB", "memoryMiB": 81920, "numaNode": 0,
               "pciBusId": "00000000:0F:00.0", "nvlinks": {"%1$s": 12}},
              {"uuid": "%3$s", "name": "NVIDIA A100-SXM4-80GB", "memoryMiB": 81920, "numaNode": 1,
               "pciBusId": "00000000:87:00.0", "nvlinks": {"%2$s": 2}},
              {"uuid": "%4$s", "name": "NVIDIA A100-SXM4-80GB", "memoryMiB": 81920, "numaNode": 0,
               "pciBusId": "00000000:17:00.0", "nvlinks": {"%1$s": 6}}
            ]}""".formatted(GPU0, GPU1, GPU2, GPU3);

    static final Sharing HIDE_GPU3 = new Sharing(
            OptionalInt.empty(),
            OptionalDouble.empty(),
            OptionalDouble.empty(),
            OptionalLong.empty(),
            Optional.of(new DeviceFilter(Set.of(GPU3), Set.of())));

    @RegisterExtension
    final PluginFixture node = new PluginFixture("n1");

    MockVendor mock;
    PluginApp plugin;

    @BeforeEach
    void setUp() {
        mock = node.mock("nvidia").devices(DEVICES);
    }

    @Test
    void onTheScoresOfThePublishedGpusAreWrittenAsUpstreamWritesThem() {
        start(true);
        // node 0 to 0: 20 + 12 x 100; across nodes: 10; GPU 1 and 2 asymmetric: 0
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(score())
                        .isEqualTo("[{\"uuid\":\"" + GPU0 + "\",\"score\":{\"" + GPU1 + "\":1220,\"" + GPU2 + "\":10}},"
                                + "{\"uuid\":\"" + GPU1 + "\",\"score\":{\"" + GPU0 + "\":1220,\"" + GPU2 + "\":0}},"
                                + "{\"uuid\":\"" + GPU2 + "\",\"score\":{\"" + GPU0 + "\":10,\"" + GPU1 + "\":0}}]"));
        assertThat(node.cluster().nodeAnnotation("n1", NvidiaKeys.REGISTER))
                .contains(GPU0, GPU1, GPU2)
                .doesNotContain(GPU3);
    }

    @Test
    void gpusBehindNvswitchesScoreTheFewerSwitchLinksAndAPcieCardItsLevel() {
        mock.devices("""
                {"devices": [
                  {"uuid": "%1$s", "numaNode": 0, "pciBusId": "00000000:07:00.0", "nvswitchLinks": 18},
                  {"uuid": "%2$s", "numaNode": 0, "pciBusId": "00000000:0F:00.0", "nvswitchLinks": 18},
                  {"uuid": "%3$s", "numaNode": 0, "pciBusId": "00000000:87:00.0", "nvswitchLinks": 12},
                  {"uuid": "%4$s", "numaNode": 0, "pciBusId": "00000000:17:00.0"}
                ]}""".formatted(GPU0, GPU1, GPU2, GPU3));
        start(true, Sharing.NONE);
        String g0 = "\"" + GPU0 + "\":";
        String g1 = "\"" + GPU1 + "\":";
        String g2 = "\"" + GPU2 + "\":";
        String g3 = "\"" + GPU3 + "\":";
        await().atMost(WAIT)
                .untilAsserted(() -> assertThat(score())
                        .isEqualTo("[{\"uuid\":\"" + GPU0 + "\",\"score\":{" + g1 + "1820," + g2 + "1220," + g3
                                + "20}},"
                                + "{\"uuid\":\"" + GPU1 + "\",\"score\":{" + g0 + "1820," + g2 + "1220," + g3 + "20}},"
                                + "{\"uuid\":\"" + GPU2 + "\",\"score\":{" + g0 + "1220," + g1 + "1220," + g3 + "20}},"
                                + "{\"uuid\":\"" + GPU3 + "\",\"score\":{" + g0 + "20," + g1 + "20," + g2 + "20}}]"));
    }

    @Test
    void offNoScoreIsWritten() {
        start(false);
        await().atMost(WAIT).until(() -> node.cluster().nodeAnnotation("n1", NvidiaKeys.REGISTER) != null);
        // two more register cycles, in which a score would have been written with the register annotation
        int cycles = plugin.registerCycles();
        await().atMost(WAIT).until(() -> plugin.registerCycles() >= cycles + 2);
        Map<String, String> annotations =
                node.cluster().getNode("n1").getMetadata().getAnnotations();
        assertThat(annotations).containsKey(NvidiaKeys.REGISTER).doesNotContainKey(NvidiaKeys.SCORE);
    }

    @Test
    void nvmlFailingOnTopologyHoldsBackOnlyTheScoreUntilItAnswersAgain() {
        mock.control("{\"failures\": [{\"function\": \"nvmlDeviceGetTopologyCommonAncestor\", \"code\": 999}]}");
        start(true);
        await().atMost(WAIT).until(() -> node.cluster().nodeAnnotation("n1", NvidiaKeys.REGISTER) != null);
        assertThat(score()).isNull();
        mock.control("{}");
        await().atMost(WAIT).until(() -> score() != null);
        assertThat(score()).startsWith("[{\"uuid\":\"" + GPU0 + "\",\"score\":{\"" + GPU1 + "\":1220,");
    }

    @Test
    void theEnvironmentTurnsItOnWithExactlyTrueAsUpstreamDoes() {
        assertThat(NvidiaPluginFactory.topologyScoreByEnv(Map.of("ENABLE_TOPOLOGY_SCORE", "true")))
                .isTrue();
        assertThat(NvidiaPluginFactory.topologyScoreByEnv(Map.of("ENABLE_TOPOLOGY_SCORE", "TRUE")))
                .isFalse();
        assertThat(NvidiaPluginFactory.topologyScoreByEnv(Map.of("ENABLE_TOPOLOGY_SCORE", "1")))
                .isFalse();
        assertThat(NvidiaPluginFactory.topologyScoreByEnv(Map.of())).isFalse();
    }

    private void start(boolean topologyScore) {
        start(topologyScore, HIDE_GPU3);
    }

    private void start(boolean topologyScore, Sharing sharing) {
        plugin = node.start(node.settings("nvidia", DeviceConfig.DEFAULTS, sharing, PluginRun.FAST, topologyScore));
    }

    private String score() {
        return node.cluster().nodeAnnotation("n1", NvidiaKeys.SCORE);
    }
}
