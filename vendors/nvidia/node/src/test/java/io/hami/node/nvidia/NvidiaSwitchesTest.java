package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hami.backend.nvidia.NvidiaConfig;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.nativebind.nvml.Nvml;
import io.hami.plugin.config.DeviceFilter;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.kubeletapi.Device;
import io.hami.plugin.testing.MockVendor;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.PluginRun;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.testing.Patience;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The operator's switches of the NVIDIA plugin against the NVML mock: per-node {@code filterdevices},
 * {@code preConfiguredDeviceMemory} for a GPU whose NVML answers NOT_SUPPORTED for its memory, and the XID policy
 * of {@code DP_DISABLE_HEALTHCHECKS} / {@code DP_ENABLE_HEALTHCHECKS} in the health source.
 */
class NvidiaSwitchesTest {
    static final String RESOURCE = "nvidia.com/gpu";
    static final String GPU0 = "GPU-aaaaaaaa-0000-4000-8000-000000000000";
    static final String GPU1 = "GPU-aaaaaaaa-0000-4000-8000-000000000001";
    static final String GPU2 = "GPU-aaaaaaaa-0000-4000-8000-000000000002";
    static final Duration WAIT = Patience.seconds(15);
    /** GPU 1 answers NOT_SUPPORTED to both memory-info calls. */
    static final String DEVICES = """
            {"devices": [
              {"uuid": "%s", "name": "NVIDIA A100-SXM4-40GB", "memoryMiB": 40960, "pciBusId": "00000000:07:00.0"},
              {"uuid": "%s", "name": "NVIDIA GH200 480GB", "memoryInfo": false, "pciBusId": "00000000:0F:00.0"},
              {"uuid": "%s", "name": "NVIDIA A100-SXM4-40GB", "memoryMiB": 40960, "pciBusId": "00000000:17:00.0"}
            ]}""".formatted(GPU0, GPU1, GPU2);

    @RegisterExtension
    final PluginFixture node = new PluginFixture("n1");

    MockVendor mock;

    @BeforeEach
    void setUp() {
        mock = node.mock("nvidia").devices(DEVICES);
    }

    @Test
    void aHiddenGpuIsNeitherListedNorPublishedAndUnsupportedMemoryIsThePreconfiguredOne() {
        start(
                24576,
                new Sharing(
                        OptionalInt.empty(),
                        OptionalDouble.empty(),
                        OptionalDouble.empty(),
                        OptionalLong.empty(),
                        Optional.of(new DeviceFilter(Set.of(GPU2), Set.of()))));

        assertThat(listed()).containsExactly(GPU0, GPU1);
        String expected = "[" + entry(GPU0, 0, 40960, "NVIDIA A100-SXM4-40GB") + ","
                + entry(GPU1, 1, 24576, "NVIDIA GH200 480GB") + "]";
        await().atMost(WAIT).until(() -> expected.equals(register()));
    }

    @Test
    void thePerNodeMemoryWinsOverTheDeviceConfigAndIndexesHideToo() {
        start(
                24576,
                new Sharing(
                        OptionalInt.of(2),
                        OptionalDouble.empty(),
                        OptionalDouble.empty(),
                        OptionalLong.of(8192),
                        Optional.of(new DeviceFilter(Set.of(), Set.of(0)))));

        assertThat(listed()).containsExactly(GPU1, GPU2);
        String expected = "[" + entry(GPU1, 1, 8192, "NVIDIA GH200 480GB").replace("\"count\":10", "\"count\":2") + ","
                + entry(GPU2, 2, 40960, "NVIDIA A100-SXM4-40GB").replace("\"count\":10", "\"count\":2") + "]";
        await().atMost(WAIT).until(() -> expected.equals(register()));
    }

    @Test
    void withoutPreconfiguredMemoryAGpuWhoseMemoryIsUnknownIsSkipped() {
        start(0, Sharing.NONE);

        assertThat(listed()).containsExactly(GPU0, GPU2);
        String expected = "[" + entry(GPU0, 0, 40960, "NVIDIA A100-SXM4-40GB") + ","
                + entry(GPU2, 2, 40960, "NVIDIA A100-SXM4-40GB") + "]";
        await().atMost(WAIT).until(() -> expected.equals(register()));
    }

    @Test
    void theXidPolicyDecidesWhichEventsMakeAServedGpuUnhealthy() {
        try (Nvml nvml = Nvml.open(mock.dir().resolve(Nvml.SONAME));
                NvidiaHealth health = new NvidiaHealth(nvml, List.of(0, 2), XidPolicy.of("79", "13"))) {
            assertThat(health.unhealthy(Duration.ofMillis(20))).isEmpty();
            // 79 disabled, GPU 1 not served, 13 (an application XID) forced on: only GPU 2 turns unhealthy
            mock.control(
                    "{\"events\":[{\"device\":0,\"xid\":79},{\"device\":1,\"xid\":48},{\"device\":2,\"xid\":13}]}");
            await().atMost(WAIT)
                    .until(() -> health.unhealthy(Duration.ofMillis(20)).contains(2));
            assertThat(health.unhealthy(Duration.ofMillis(20))).containsExactly(2);
        }
    }

    @Test
    void withXidChecksOffOnlyReachabilityCountsAndUnsupportedMemoryIsNoLoss() {
        try (Nvml nvml = Nvml.open(mock.dir().resolve(Nvml.SONAME));
                NvidiaHealth health = new NvidiaHealth(nvml, List.of(0, 1, 2), XidPolicy.of("all", null))) {
            mock.control("{\"events\":[{\"device\":0,\"xid\":48},{\"device\":2,\"xid\":79}]}");
            for (int i = 0; i < 5; i++) {
                assertThat(health.unhealthy(Duration.ofMillis(20))).isEmpty();
            }
            mock.control("{\"events\":[{\"device\":0,\"xid\":48},{\"device\":2,\"xid\":79}],\"lost\":[2]}");
            await().atMost(WAIT)
                    .until(() -> health.unhealthy(Duration.ofMillis(20)).equals(Set.of(2)));
        }
    }

    private void start(long preConfiguredMiB, Sharing sharing) {
        NvidiaConfig d = NvidiaConfig.DEFAULTS;
        NvidiaConfig.Node n = d.node();
        NvidiaConfig config = new NvidiaConfig(
                d.resources(),
                d.requests(),
                d.isolation(),
                new NvidiaConfig.Node(
                        n.deviceSplitCount(),
                        n.deviceMemoryScaling(),
                        n.deviceCoreScaling(),
                        preConfiguredMiB,
                        n.libCudaLogLevel(),
                        n.enableNumaTopology()));
        node.start(node.settings(
                "nvidia", DeviceConfig.DEFAULTS.with(NvidiaConfig.SECTION, config), sharing, PluginRun.FAST, false));
    }

    /** The GPUs the kubelet is offered, each once, in order. */
    private List<String> listed() {
        return node.kubelet().awaitList(RESOURCE, l -> l.getDevicesCount() > 0, WAIT).getDevicesList().stream()
                .map(Device::getID)
                .map(id -> id.substring(0, id.lastIndexOf('-')))
                .distinct()
                .toList();
    }

    private String register() {
        return node.cluster().nodeAnnotation("n1", NvidiaKeys.REGISTER);
    }

    /** One register entry as upstream writes it: index 0 and NUMA 0 left out. */
    private static String entry(String uuid, int index, int memoryMiB, String type) {
        return "{\"id\":\"" + uuid + "\"" + (index == 0 ? "" : ",\"index\":" + index)
                + ",\"count\":10,\"devmem\":" + memoryMiB + ",\"devcore\":100,\"type\":\"" + type
                + "\",\"mode\":\"hami-core\",\"health\":true}";
    }
}
