package io.hami.fake;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.plugin.PluginApp;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.config.Sharing;
import io.hami.plugin.kubeletapi.ContainerAllocateResponse;
import io.hami.plugin.kubeletapi.RegisterRequest;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.PluginRun;
import io.hami.plugin.testing.TestCluster;
import io.hami.plugin.testing.TestKubelet;
import io.hami.plugin.vendor.VendorPlugins;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.Discovery;
import io.hami.protocol.testing.Patience;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The plugin runtime picks up a vendor it has never heard of from its {@code META-INF/services} files alone: it is
 * a valid {@code --backend}, registers its resources with the kubelet, advertises the capacity its scheduler side
 * discovers, and serves the scheduler's decision in Allocate.
 */
class FakeVendorPluginTest {
    static final String NODE = "n1";
    static final Duration WAIT = Patience.seconds(15);

    @RegisterExtension
    final PluginFixture node = new PluginFixture(NODE);

    @Test
    void theRuntimeServesTheFakeVendorFromItsServiceFilesAlone() throws Exception {
        Path lib = Files.createDirectories(node.root().resolve("lib"));
        Files.writeString(lib.resolve(FakePlugin.INVENTORY), "xpu-a 16384\nxpu-b 16384\n");
        assertThat(VendorPlugins.load().names()).containsExactly("fake");

        TestCluster cluster = node.cluster();
        TestKubelet kubelet = node.kubelet();
        var settings = new PluginApp.Settings(
                "fake",
                NODE,
                null,
                node.pluginDir(),
                lib,
                DeviceConfig.DEFAULTS,
                Sharing.NONE,
                HostPaths.under(node.root()),
                PluginRun.FAST);
        try (PluginApp plugin = node.start(settings)) {
            assertThat(kubelet.registrations())
                    .extracting(RegisterRequest::getResourceName, RegisterRequest::getEndpoint)
                    .containsExactlyInAnyOrder(
                            org.assertj.core.groups.Tuple.tuple(FakeKeys.COUNT, "fake-xpu.sock"),
                            org.assertj.core.groups.Tuple.tuple(FakeKeys.CORES, "fake-xpu-cores.sock"),
                            org.assertj.core.groups.Tuple.tuple(FakeKeys.MEMORY, "fake-xpu-memory.sock"));
            int cores = kubelet.awaitList(FakeKeys.CORES, l -> l.getDevicesCount() > 0, WAIT)
                    .getDevicesCount();
            int memory = kubelet.awaitList(FakeKeys.MEMORY, l -> l.getDevicesCount() > 0, WAIT)
                    .getDevicesCount();
            assertThat(kubelet.awaitList(FakeKeys.COUNT, l -> l.getDevicesCount() > 0, WAIT)
                            .getDevicesCount())
                    .isEqualTo(20);
            assertThat(cores).isEqualTo(200);
            assertThat(memory).isEqualTo(32);
            // the capacity the kubelet would publish is what the fake's scheduler side discovers
            var node = new NodeBuilder()
                    .withNewMetadata()
                    .withName(NODE)
                    .endMetadata()
                    .withNewStatus()
                    .addToCapacity(FakeKeys.CORES, new Quantity(Integer.toString(cores)))
                    .addToCapacity(FakeKeys.MEMORY, new Quantity(Integer.toString(memory)))
                    .endStatus()
                    .build();
            var backend = DeviceBackends.load(DeviceConfig.DEFAULTS)
                    .byVendor(FakeKeys.VENDOR)
                    .orElseThrow();
            assertThat(((Discovery.Found) backend.discover(node)).devices())
                    .containsExactly(
                            new DeviceInfo("n1-fake-xpu-0", 0, 100, 16384, 100, "FAKE", 0, "", true),
                            new DeviceInfo("n1-fake-xpu-1", 1, 100, 16384, 100, "FAKE", 0, "", true));

            cluster.pod("job", List.of(), List.of(TestCluster.container("main")));
            cluster.bind("job", NODE, Map.of(FakeKeys.VENDOR_KEYS, "n1-fake-xpu-1,FAKE,4096,50:;"));
            ContainerAllocateResponse r =
                    kubelet.allocate(FakeKeys.COUNT, List.of("xpu-b-xpu-0")).getContainerResponses(0);

            assertThat(r.getEnvsMap())
                    .containsExactlyInAnyOrderEntriesOf(
                            Map.of("FAKE_VISIBLE_XPUS", "xpu-b", "FAKE_XPU_0_MEMORY_MIB", "4096"));
            assertThat(cluster.annotation("job", FakeKeys.TO_ALLOCATE)).isEqualTo(";");
            assertThat(cluster.annotation("job", ProtocolKeys.BIND_PHASE)).isEqualTo("success");
            assertThat(plugin.registerPatches()).isZero(); // capacity is the inventory: no register annotation
        }
    }
}
