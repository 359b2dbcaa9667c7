package io.hami.node.hygon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.hami.backend.hygon.HygonKeys;
import io.hami.kube.patch.AnnotationPatch;
import io.hami.plugin.PluginApp;
import io.hami.plugin.kubeletapi.ContainerAllocateResponse;
import io.hami.plugin.kubeletapi.Device;
import io.hami.plugin.kubeletapi.DeviceSpec;
import io.hami.plugin.kubeletapi.ListAndWatchResponse;
import io.hami.plugin.kubeletapi.Mount;
import io.hami.plugin.testing.MockVendor;
import io.hami.plugin.testing.PluginFixture;
import io.hami.plugin.testing.TestCluster;
import io.hami.protocol.annotation.ProtocolKeys;
import io.hami.protocol.codec.Handshake;
import io.hami.protocol.codec.HandshakeCodec;
import io.hami.protocol.config.DeviceConfig;
import io.hami.protocol.spi.DeviceBackends;
import io.hami.protocol.spi.VendorKeys;
import io.hami.protocol.testing.Patience;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Hygon HCU against the ROCm SMI and hydmi mocks: register value, handshake, virtual HCUs, health. */
class HygonPluginTest {
    static final String NODE = "n1";
    static final String HCU0 = "DCU-6c8a1f4e2b9d0001";
    static final String HCU1 = "DCU-6c8a1f4e2b9d0002";
    static final String RESOURCE = "hygon.com/hcunum";
    static final Duration WAIT = Patience.seconds(15);
    static final VendorKeys KEYS = DeviceBackends.load(DeviceConfig.DEFAULTS)
            .byVendor(HygonKeys.VENDOR)
            .orElseThrow()
            .keys();

    @RegisterExtension
    final PluginFixture node = new PluginFixture(NODE);

    MockVendor mock;
    PluginApp plugin;

    @BeforeEach
    void start() throws Exception {
        mock = node.mock("hygon");
        Files.createDirectories(node.root().resolve("opt/hyhal"));
        plugin = node.start("hygon");
    }

    @Test
    void publishesTheLegacyRegisterValueAndAnswersTheHandshake() {
        String expected = HCU0 + ",4,65536,100,HCU-K100_AI,0,true,0,hami-core:" + HCU1
                + ",4,65536,100,HCU-K100_AI,1,true,1,hami-core:";
        await().atMost(WAIT).until(() -> expected.equals(node.cluster().nodeAnnotation(NODE, HygonKeys.REGISTER)));
        assertThat(node.kubelet()
                        .awaitList(RESOURCE, l -> l.getDevicesCount() == 8, WAIT)
                        .getDevicesList())
                .extracting(Device::getID)
                .startsWith(HCU0 + "-0", HCU0 + "-1", HCU0 + "-2", HCU0 + "-3", HCU1 + "-0");

        LocalDateTime before = LocalDateTime.now(ZoneOffset.UTC).withNano(0);
        node.cluster()
                .client()
                .nodes()
                .withName(NODE)
                .patch(
                        PatchContext.of(PatchType.JSON_MERGE),
                        AnnotationPatch.mergePatch(
                                Map.of(HygonKeys.HANDSHAKE, "Requesting_2026-08-21 10:00:00"), Map.of(), null));

        await().atMost(WAIT)
                .until(() ->
                        node.cluster().nodeAnnotation(NODE, HygonKeys.HANDSHAKE).startsWith("Reported_"));
        Handshake answer = decode(node.cluster().nodeAnnotation(NODE, HygonKeys.HANDSHAKE));
        assertThat(answer.time())
                .isBetween(before, LocalDateTime.now(ZoneOffset.UTC).plusSeconds(1));
    }

    @Test
    void aShareOfACardGetsAVirtualHcuAndItsConfigurationAWholeCardDoesNot() throws Exception {
        node.cluster().pod("share", List.of(), List.of(TestCluster.container("a"), TestCluster.container("b")));
        node.cluster().bind("share", NODE, Map.of(KEYS, HCU1 + ",HCU,16384,50:;" + HCU0 + ",HCU,65536,100:;"));

        ContainerAllocateResponse shared =
                node.kubelet().allocate(RESOURCE, List.of(HCU1 + "-0")).getContainerResponses(0);

        Path host = node.root();
        assertThat(shared.getDevicesList())
                .containsExactly(
                        device("/dev/kfd", host.resolve("dev/kfd"), "rwm"),
                        device("/dev/mkfd", host.resolve("dev/mkfd"), "rwm"),
                        device("/dev/dri/card1", host.resolve("dev/dri/card1"), "rw"),
                        device("/dev/dri/renderD129", host.resolve("dev/dri/renderD129"), "rw"));
        Path conf = node.root().resolve("etc/vdev/vdev0.conf");
        assertThat(shared.getMountsList())
                .containsExactly(
                        Mount.newBuilder()
                                .setContainerPath("/etc/vdev/docker/vdev0.conf")
                                .setHostPath(conf.toString())
                                .setReadOnly(true)
                                .build(),
                        Mount.newBuilder()
                                .setContainerPath("/opt/hyhal")
                                .setHostPath(node.root().resolve("opt/hyhal").toString())
                                .setReadOnly(true)
                                .build());
        assertThat(Files.readString(conf))
                .isEqualTo(
                        "PciBusId: 0000:C3:00.0\ncu_count: 60\nmem: 16384 MiB\ndevice_id: 1\nvdev_id: 0\nenable: 1\n");
        var vdevs = mock.state("hydmi-state.json").get("virtualDevices");
        assertThat(vdevs).hasSize(1);
        assertThat(vdevs.get(0).toString())
                .isEqualTo("{\"id\":0,\"device\":1,\"computeUnits\":60,\"memoryMiB\":16384}");

        ContainerAllocateResponse whole =
                node.kubelet().allocate(RESOURCE, List.of(HCU0 + "-0")).getContainerResponses(0);
        assertThat(whole.getMountsList()).extracting(Mount::getContainerPath).containsExactly("/opt/hyhal");
        assertThat(whole.getDevicesList())
                .extracting(DeviceSpec::getContainerPath)
                .contains("/dev/dri/renderD128");
        assertThat(node.cluster().annotation("share", ProtocolKeys.BIND_PHASE)).isEqualTo("success");

        // The pod ends: its virtual HCU is destroyed and its configuration removed, so the card does not run out.
        node.cluster().reject("share");
        await().atMost(WAIT)
                .until(() ->
                        mock.state("hydmi-state.json").get("virtualDevices").isEmpty());
        assertThat(conf).doesNotExist();
    }

    @Test
    void aVirtualHcuOfAPodThatEndedWhileThePluginWasDownIsFreedByTheNextPlugin() throws Exception {
        node.cluster().pod("share", List.of(), List.of(TestCluster.container("a")));
        node.cluster().bind("share", NODE, Map.of(KEYS, HCU0 + ",HCU,8192,25:;"));
        node.kubelet().allocate(RESOURCE, List.of(HCU0 + "-0"));
        String uid = node.cluster().get("share").getMetadata().getUid();
        Path ledger = node.root().resolve("var/lib/hami-java/hygon-virtual-hcus");
        assertThat(Files.readAllLines(ledger)).contains(uid + " 0");

        plugin.close(); // an upgrade: the pod ends before the new plugin is up
        node.cluster().reject("share");
        plugin = node.start("hygon");

        await().atMost(WAIT)
                .until(() ->
                        mock.state("hydmi-state.json").get("virtualDevices").isEmpty());
        assertThat(node.root().resolve("etc/vdev/vdev0.conf")).doesNotExist();
        assertThat(Files.readAllLines(ledger)).noneMatch(l -> l.startsWith(uid));
    }

    @Test
    void aResetCardIsUnhealthyUntilTheResetCompletes() {
        String expectedHealthy = HCU0 + ",4,65536,100,HCU-K100_AI,0,true,0,hami-core:" + HCU1
                + ",4,65536,100,HCU-K100_AI,1,true,1,hami-core:";
        mock.control("{\"unhealthy\":[1]}"); // the mock announces a GPU_PRE_RESET
        node.kubelet().awaitList(RESOURCE, l -> unhealthy(l).equals(List.of(HCU1)), WAIT);
        await().atMost(WAIT)
                .until(() -> expectedHealthy
                        .replace("1,true,1", "1,false,1")
                        .equals(node.cluster().nodeAnnotation(NODE, HygonKeys.REGISTER)));

        mock.control("{\"events\":[{\"device\":1,\"event\":4,\"message\":\"reset done\"}]}");
        node.kubelet().awaitList(RESOURCE, l -> unhealthy(l).isEmpty(), WAIT);
        await().atMost(WAIT)
                .until(() -> expectedHealthy.equals(node.cluster().nodeAnnotation(NODE, HygonKeys.REGISTER)));
    }

    private static List<String> unhealthy(ListAndWatchResponse l) {
        return l.getDevicesList().stream()
                .filter(d -> d.getHealth().equals("Unhealthy"))
                .map(d -> d.getID().substring(0, d.getID().lastIndexOf('-')))
                .distinct()
                .toList();
    }

    private static Handshake decode(String value) {
        try {
            return HandshakeCodec.decode(value);
        } catch (io.hami.protocol.codec.AnnotationFormatException e) {
            throw new AssertionError(e);
        }
    }

    private static DeviceSpec device(String container, Path host, String permissions) {
        return DeviceSpec.newBuilder()
                .setContainerPath(container)
                .setHostPath(host.toString())
                .setPermissions(permissions)
                .build();
    }
}
