package io.hami.node.nvidia;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.plugin.PluginApp;
import io.hami.plugin.kubeletapi.Device;
import io.hami.plugin.kubeletapi.ListAndWatchResponse;
import io.hami.plugin.testing.MockVendor;
import io.hami.plugin.testing.PluginFixture;
import io.hami.protocol.testing.Patience;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * NVIDIA ListAndWatch health and the register loop against the NVML mock (design D7 in docs/design.md#d7,
 * docs/upstream.md#plugin-register-loop and docs/upstream.md#plugin-health).
 */
class NvidiaHealthAndRegisterTest {
    static final String RESOURCE = "nvidia.com/gpu";
    static final String GPU0 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";
    static final String GPU1 = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000001";
    static final Duration WAIT = Patience.seconds(15);
    static final String REGISTER_ALL_HEALTHY =
            "[{\"id\":\"" + GPU0 + "\",\"count\":10,\"devmem\":40960,\"devcore\":100,"
                    + "\"type\":\"NVIDIA A100-SXM4-40GB\",\"mode\":\"hami-core\",\"health\":true},{\"id\":\"" + GPU1
                    + "\",\"index\":1,\"count\":10,\"devmem\":40960,\"devcore\":100,\"type\":\"NVIDIA A100-SXM4-40GB\",\"numa\":1,"
                    + "\"mode\":\"hami-core\",\"health\":true}]";

    @RegisterExtension
    final PluginFixture node = new PluginFixture("n1");

    MockVendor mock;
    PluginApp plugin;

    @BeforeEach
    void start() {
        mock = node.mock("nvidia");
        plugin = node.start("nvidia");
    }

    @Test
    void aLostGpuTurnsUnhealthyAndRecoversInTheListAndTheRegisterAnnotation() {
        await().atMost(WAIT).until(() -> REGISTER_ALL_HEALTHY.equals(register()));

        mock.control("{\"lost\":[1]}");
        ListAndWatchResponse sick =
                node.kubelet().awaitList(RESOURCE, l -> health(l, GPU1).equals(List.of("Unhealthy")), WAIT);
        assertThat(health(sick, GPU0)).containsExactly("Healthy");
        assertThat(sick.getDevicesCount()).isEqualTo(20);
        // NVML cannot read the lost GPU: it is published as known, without its health key
        String gpu1Lost =
                REGISTER_ALL_HEALTHY.substring(0, REGISTER_ALL_HEALTHY.lastIndexOf(",\"health\":true")) + "}]";
        await().atMost(WAIT).until(() -> gpu1Lost.equals(register()));

        mock.control("{}");
        node.kubelet()
                .awaitList(
                        RESOURCE,
                        l -> health(l, GPU1).equals(List.of("Healthy"))
                                && health(l, GPU0).equals(List.of("Healthy")),
                        WAIT);
        await().atMost(WAIT).until(() -> REGISTER_ALL_HEALTHY.equals(register()));
    }

    @Test
    void aCriticalXidMakesItsGpuUnhealthyForGoodWhileApplicationXidsAreIgnored() {
        // the plugin counts its patch when the response is back, just after the value becomes visible here
        await().atMost(WAIT).until(() -> REGISTER_ALL_HEALTHY.equals(register()) && plugin.registerPatches() > 0);
        int patches = plugin.registerPatches();

        mock.control("{\"events\":[{\"device\":1,\"xid\":13},{\"device\":0,\"xid\":79}]}");

        ListAndWatchResponse list =
                node.kubelet().awaitList(RESOURCE, l -> health(l, GPU0).equals(List.of("Unhealthy")), WAIT);
        assertThat(health(list, GPU1)).containsExactly("Healthy"); // XID 13 is the application's fault
        // the unhealthy GPU loses its health key; written once, not on every cycle
        String expected = REGISTER_ALL_HEALTHY.replaceFirst(",\"health\":true", "");
        await().atMost(WAIT).until(() -> expected.equals(register()));
        mock.control("{\"events\":[{\"device\":1,\"xid\":13},{\"device\":0,\"xid\":79}]}");
        awaitCycles(3);
        assertThat(plugin.registerPatches()).isEqualTo(patches + 1);
        assertThat(health(node.kubelet().awaitList(RESOURCE, l -> true, WAIT), GPU0))
                .containsExactly("Unhealthy");
    }

    @Test
    void aFailedPatchIsRetriedSoonAndTheValueIsRememberedOnlyOnceWritten() {
        // the plugin counts its patch when the response is back, just after the value becomes visible here
        await().atMost(WAIT).until(() -> REGISTER_ALL_HEALTHY.equals(register()) && plugin.registerPatches() > 0);
        int patches = plugin.registerPatches();
        node.cluster().server().faults().failNext("PATCH", "/api/v1/nodes/n1", 500, 3);

        mock.control("{\"events\":[{\"device\":0,\"xid\":48}]}"); // GPU 0 unhealthy for good: a new value to write

        // upstream caches the value before patching, so after a failed patch it never writes it; here the loop
        // retries after the short wait until the API server takes it
        String expected = REGISTER_ALL_HEALTHY.replaceFirst(",\"health\":true", "");
        await().atMost(WAIT).until(() -> expected.equals(register()) && plugin.registerPatches() > patches);
        assertThat(node.cluster().server().faults().injectedCount()).isEqualTo(3);
        assertThat(plugin.registerPatches()).isEqualTo(patches + 1);
    }

    private String register() {
        return node.cluster().nodeAnnotation("n1", NvidiaKeys.REGISTER);
    }

    private static List<String> health(ListAndWatchResponse list, String gpu) {
        return list.getDevicesList().stream()
                .filter(d -> d.getID().startsWith(gpu + "-"))
                .map(Device::getHealth)
                .distinct()
                .toList();
    }

    /** Waits until the register loop has run {@code n} more cycles, each of which would have written a change. */
    private void awaitCycles(int n) {
        int cycles = plugin.registerCycles();
        await().atMost(WAIT).until(() -> plugin.registerCycles() >= cycles + n);
    }
}
