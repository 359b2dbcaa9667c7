package io.hami.node.cambricon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.hami.backend.cambricon.CambriconKeys;
import io.hami.backend.mthreads.MthreadsKeys;
import io.hami.plugin.PluginApp;
import io.hami.plugin.kubeletapi.AllocateResponse;
import io.hami.plugin.kubeletapi.ContainerAllocateResponse;
import io.hami.plugin.kubeletapi.Device;
import io.hami.plugin.kubeletapi.DeviceSpec;
import io.hami.plugin.kubeletapi.ListAndWatchResponse;
import io.hami.plugin.kubeletapi.RegisterRequest;
import io.hami.plugin.testing.MockVendor;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.TestCluster;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackend;
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
 * Cambricon and Moore Threads publish through kubelet capacity (design D1, docs/design.md#d1): the capacity their plugins advertise must
 * make the scheduler's backends discover exactly the plugins' cards, and Allocate of the count resource serves
 * the decision while the core and memory resources grant nothing.
 */
class CapacityVendorsTest {
    static final String NODE = "n1";
    static final Duration WAIT = Patience.seconds(15);
    static final DeviceBackends BACKENDS = DeviceBackends.load(DeviceConfig.DEFAULTS);
    static final String MLU1 = "4b7f3c2a-1d5e-4f60-8a9b-000000000001";

    @RegisterExtension
    final PluginFixture node = new PluginFixture(NODE);

    @Test
    void cambriconCapacityIsWhatTheSchedulerDiscoversAndAllocateCreatesAnSmluInstance() {
        MockVendor mock = node.mock("cambricon");
        try (PluginApp plugin = node.start("cambricon")) {
            assertThat(node.kubelet().registrations())
                    .extracting(RegisterRequest::getResourceName, RegisterRequest::getEndpoint)
                    .containsExactlyInAnyOrder(
                            org.assertj.core.groups.Tuple.tuple("cambricon.com/vmlu", "cambricon-vmlu.sock"),
                            org.assertj.core.groups.Tuple.tuple(
                                    "cambricon.com/mlu.smlu.vcore", "cambricon-mlu.smlu.vcore.sock"),
                            org.assertj.core.groups.Tuple.tuple(
                                    "cambricon.com/mlu.smlu.vmemory", "cambricon-mlu.smlu.vmemory.sock"));
            int vcore = node.kubelet()
                    .awaitList("cambricon.com/mlu.smlu.vcore", l -> l.getDevicesCount() > 0, WAIT)
                    .getDevicesCount();
            int vmemory = node.kubelet()
                    .awaitList("cambricon.com/mlu.smlu.vmemory", l -> l.getDevicesCount() > 0, WAIT)
                    .getDevicesCount();
            assertThat(vcore).isEqualTo(200);
            assertThat(vmemory).isEqualTo(192); // 2 x 24576 MiB in 256 MiB units
            assertThat(discover(
                            CambriconKeys.VENDOR,
                            "cambricon.com/mlu.smlu.vcore",
                            vcore,
                            "cambricon.com/mlu.smlu.vmemory",
                            vmemory))
                    .containsExactly(
                            new DeviceInfo("n1-cambricon-mlu-0", 0, 100, 24576, 100, "MLU", 0, "", true),
                            new DeviceInfo("n1-cambricon-mlu-1", 1, 100, 24576, 100, "MLU", 0, "", true));

            node.cluster().pod("mlu", List.of(), List.of(TestCluster.container("main")));
            node.cluster().bind("mlu", NODE, Map.of(keys(CambriconKeys.VENDOR), "n1-cambricon-mlu-1,MLU,4096,30:;"));
            // the capacity resources grant nothing and leave the pod alone
            AllocateResponse cores =
                    node.kubelet().allocate("cambricon.com/mlu.smlu.vcore", List.of(MLU1 + "-vcore-1"));
            assertThat(cores.getContainerResponsesList())
                    .containsExactly(ContainerAllocateResponse.getDefaultInstance());
            assertThat(node.cluster().annotation("mlu", ProtocolKeys.BIND_PHASE))
                    .isEqualTo("allocating");

            ContainerAllocateResponse r = node.kubelet()
                    .allocate("cambricon.com/vmlu", List.of(MLU1 + "-vmlu-0"))
                    .getContainerResponses(0);

            assertThat(r.getDevicesList())
                    .containsExactly(
                            device("/dev/cambricon_dev1", node.root().resolve("dev/cambricon_dev1"), "rw"),
                            device(
                                    "/dev/cambricon-caps/cap_dev1_mi1",
                                    node.root().resolve("dev/cambricon-caps/cap_dev1_mi1"),
                                    "rw"));
            assertThat(r.getEnvsMap()).isEmpty();
            var card = mock.state("cndev-state.json").get("devices").get(1);
            assertThat(card.get("allocatedMluQuota").asInt()).isEqualTo(30);
            assertThat(card.get("allocatedMemoryBytes").asLong()).isEqualTo(4096L << 20);
            assertThat(card.get("instances")).hasSize(1);
            assertThat(node.cluster().annotation("mlu", ProtocolKeys.BIND_PHASE))
                    .isEqualTo("success");
            assertThat(node.cluster()
                            .annotation("mlu", keys(CambriconKeys.VENDOR).toAllocateKey()))
                    .isEqualTo(";");
            assertThat(plugin.registrations()).isEqualTo(3);
        }
    }

    @Test
    void anSmluInstanceOfAPodThatEndedWhileThePluginWasDownIsFreedByTheNextPlugin() throws Exception {
        MockVendor mock = node.mock("cambricon");
        node.cluster().pod("mlu", List.of(), List.of(TestCluster.container("main")));
        try (PluginApp plugin = node.start("cambricon")) {
            node.cluster().bind("mlu", NODE, Map.of(keys(CambriconKeys.VENDOR), "n1-cambricon-mlu-1,MLU,4096,30:;"));
            node.kubelet().allocate("cambricon.com/vmlu", List.of(MLU1 + "-vmlu-0"));
            assertThat(mock.state("cndev-state.json").get("devices").get(1).get("instances"))
                    .hasSize(1);
        }
        node.cluster().reject("mlu"); // the pod ends while no plugin runs, as during an upgrade
        try (PluginApp plugin = node.start("cambricon")) {
            await().atMost(WAIT)
                    .until(() -> mock.state("cndev-state.json")
                            .get("devices")
                            .get(1)
                            .get("instances")
                            .isEmpty());
            assertThat(mock.state("cndev-state.json")
                            .get("devices")
                            .get(1)
                            .get("allocatedMluQuota")
                            .asInt())
                    .isZero();
            assertThat(Files.readAllLines(node.root().resolve("var/lib/hami-java/cambricon-smlu-instances")))
                    .noneMatch(l ->
                            l.startsWith(node.cluster().get("mlu").getMetadata().getUid()));
        }
    }

    @Test
    void cambriconHealthIsPolledBothWays() {
        MockVendor mock = node.mock("cambricon");
        try (PluginApp plugin = node.start("cambricon")) {
            mock.control("{\"unhealthy\":[0]}");
            for (String resource :
                    List.of("cambricon.com/vmlu", "cambricon.com/mlu.smlu.vcore", "cambricon.com/mlu.smlu.vmemory")) {
                ListAndWatchResponse l = node.kubelet().awaitList(resource, x -> unhealthy(x) > 0, WAIT);
                assertThat(l.getDevicesList())
                        .filteredOn(d -> d.getHealth().equals("Unhealthy"))
                        .allMatch(d -> d.getID().startsWith("4b7f3c2a-1d5e-4f60-8a9b-000000000000-"));
            }
            mock.control("{}");
            node.kubelet().awaitList("cambricon.com/vmlu", x -> unhealthy(x) == 0, WAIT);
            assertThat(plugin.registerPatches()).isZero(); // capacity is the inventory: no register annotation
        }
    }

    @Test
    void mthreadsCapacityIsWhatTheSchedulerDiscoversAndAllocateGivesDeviceNodesAndVisibleDevices() {
        MockVendor mock = node.mock("mthreads");
        try (PluginApp plugin = node.start("mthreads")) {
            int cores = node.kubelet()
                    .awaitList("mthreads.com/sgpu-core", l -> l.getDevicesCount() > 0, WAIT)
                    .getDevicesCount();
            int memory = node.kubelet()
                    .awaitList("mthreads.com/sgpu-memory", l -> l.getDevicesCount() > 0, WAIT)
                    .getDevicesCount();
            assertThat(cores).isEqualTo(32);
            assertThat(memory).isEqualTo(192); // 2 x 49152 MiB in 512 MiB units
            assertThat(discover(
                            MthreadsKeys.VENDOR, "mthreads.com/sgpu-core", cores, "mthreads.com/sgpu-memory", memory))
                    .extracting(DeviceInfo::id, DeviceInfo::devmem)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("n1-mthreads-0", 49152),
                            org.assertj.core.groups.Tuple.tuple("n1-mthreads-1", 49152));

            node.cluster().pod("mt", List.of(), List.of(TestCluster.container("main")));
            node.cluster()
                    .bind(
                            "mt",
                            NODE,
                            Map.of(
                                    keys(MthreadsKeys.VENDOR),
                                    "n1-mthreads-0,Mthreads,49152,16:n1-mthreads-1,Mthreads,49152,16:;"));
            ContainerAllocateResponse r = node.kubelet()
                    .allocate(
                            "mthreads.com/vgpu",
                            List.of(
                                    "5d2c7e10-93ab-4c4e-b1f2-000000000000-vgpu-0",
                                    "5d2c7e10-93ab-4c4e-b1f2-000000000001-vgpu-0"))
                    .getContainerResponses(0);

            assertThat(r.getEnvsMap()).containsExactly(Map.entry("MTHREADS_VISIBLE_DEVICES", "0,1"));
            assertThat(r.getDevicesList())
                    .extracting(DeviceSpec::getContainerPath)
                    .containsExactly(
                            "/dev/mtgpu.0",
                            "/dev/dri/card0",
                            "/dev/dri/renderD128",
                            "/dev/mtgpu.1",
                            "/dev/dri/card1",
                            "/dev/dri/renderD129");
            assertThat(r.getDevices(0).getHostPath())
                    .isEqualTo(node.root().resolve("dev/mtgpu.0").toString());
            assertThat(node.cluster().annotation("mt", ProtocolKeys.BIND_PHASE)).isEqualTo("success");

            mock.control("{\"unhealthy\":[1]}");
            node.kubelet().awaitList("mthreads.com/vgpu", l -> unhealthy(l) == 100, WAIT);
            mock.control("{}");
            node.kubelet().awaitList("mthreads.com/vgpu", l -> unhealthy(l) == 0, WAIT);
            assertThat(plugin.registerPatches()).isZero();
        }
    }

    /** What the scheduler's backend discovers on a node whose capacity is what the plugin advertised. */
    private static List<DeviceInfo> discover(
            String vendor, String coreResource, int cores, String memoryResource, int memory) {
        DeviceBackend backend = BACKENDS.byVendor(vendor).orElseThrow();
        var node = new NodeBuilder()
                .withNewMetadata()
                .withName(NODE)
                .endMetadata()
                .withNewStatus()
                .addToCapacity(coreResource, new Quantity(Integer.toString(cores)))
                .addToCapacity(memoryResource, new Quantity(Integer.toString(memory)))
                .endStatus()
                .build();
        return ((Discovery.Found) backend.discover(node)).devices();
    }

    private static io.hami.protocol.spi.VendorKeys keys(String vendor) {
        return BACKENDS.byVendor(vendor).orElseThrow().keys();
    }

    private static long unhealthy(ListAndWatchResponse l) {
        return l.getDevicesList().stream()
                .map(Device::getHealth)
                .filter("Unhealthy"::equals)
                .count();
    }

    private static DeviceSpec device(String container, Path host, String permissions) {
        return DeviceSpec.newBuilder()
                .setContainerPath(container)
                .setHostPath(host.toString())
                .setPermissions(permissions)
                .build();
    }
}
