package io.hami.lab.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.scenario.NodeSpec;
import io.hami.lab.scenario.ScenarioLoader;
import io.hami.lab.scenario.Vendor;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class NodeHardwareTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private static NodeSpec node() throws Exception {
        return ScenarioLoader.parse("""
                name: hw
                nodes:
                  - name: box
                    count: 2
                    devices:
                      - {vendor: nvidia, model: NVIDIA A100, count: 4, memory: 40960, numa: 2}
                      - {vendor: hygon, model: Z100, count: 2, memory: 32768}
                """, "hw.yaml").nodeSpecs().get(1);
    }

    @Test
    void eachNodeAndVendorGetsItsOwnLibraryCopyAndDeviceFile(@TempDir Path root) throws Exception {
        NodeSpec node = node();
        NodeHardware gpus =
                NodeHardware.create(root, node, node.devices(Vendor.NVIDIA).orElseThrow());
        NodeHardware hcus =
                NodeHardware.create(root, node, node.devices(Vendor.HYGON).orElseThrow());

        assertThat(gpus.dir()).isEqualTo(root.resolve("box-1/nvidia"));
        assertThat(Files.isRegularFile(gpus.dir().resolve("libnvidia-ml.so.1"))).isTrue();
        assertThat(Files.isSymbolicLink(gpus.dir().resolve("libnvidia-ml.so.1")))
                .isFalse();
        assertThat(hcus.dir().resolve("libhydmi.so.1")).exists();
        JsonNode devices =
                JSON.readTree(gpus.dir().resolve("devices.json").toFile()).path("devices");
        assertThat(devices).hasSize(4);
        assertThat(devices.get(3).path("uuid").asString())
                .isEqualTo(DeviceIds.uuid(Vendor.NVIDIA, "box-1", 3))
                .startsWith("GPU-");
        assertThat(devices.get(3).path("numaNode").asInt()).isEqualTo(1);
        assertThat(devices.get(0).path("memoryMiB").asInt()).isEqualTo(40960);
        JsonNode hygon =
                JSON.readTree(hcus.dir().resolve("devices.json").toFile()).path("devices");
        assertThat(hygon.get(1).path("minor").asInt())
                .as("Hygon minors are DRM render minors")
                .isEqualTo(129);
    }

    @Test
    void healthChangesGoToTheControlFileTheMockRereads(@TempDir Path root) throws Exception {
        NodeSpec node = node();
        NodeHardware gpus =
                NodeHardware.create(root, node, node.devices(Vendor.NVIDIA).orElseThrow());

        gpus.setHealthy(2, false);
        gpus.setHealthy(0, false);
        assertThat(JSON.readTree(gpus.dir().resolve("control.json").toFile())
                        .path("unhealthy")
                        .toString())
                .isEqualTo("[0,2]");
        gpus.setHealthy(2, true);
        assertThat(JSON.readTree(gpus.dir().resolve("control.json").toFile())
                        .path("unhealthy")
                        .toString())
                .isEqualTo("[0]");
    }

    @Test
    void schedulerIdsFollowEachVendorsDiscovery() {
        assertThat(DeviceIds.schedulerId(Vendor.CAMBRICON, "n", 2)).isEqualTo("n-cambricon-mlu-2");
        assertThat(DeviceIds.schedulerId(Vendor.MTHREADS, "n", 0)).isEqualTo("n-mthreads-0");
        assertThat(DeviceIds.schedulerId(Vendor.HYGON, "n", 1))
                .isEqualTo(DeviceIds.uuid(Vendor.HYGON, "n", 1))
                .startsWith("HCU-");
        assertThat(DeviceIds.uuid(Vendor.NVIDIA, "a", 0)).isNotEqualTo(DeviceIds.uuid(Vendor.NVIDIA, "b", 0));
    }

    @Test
    void nvlinkIslandsLinkEveryPairWithinAnIslandAndNoneAcross(@TempDir Path root) throws Exception {
        NodeSpec node = ScenarioLoader.parse("""
                name: hw
                nodes:
                  - name: nvl
                    devices:
                      - {vendor: nvidia, model: H100, count: 4, memory: 81920, nvlink: [[0, 1, 2]], nvlinkLinks: 4}
                """, "hw.yaml").nodeSpecs().getFirst();
        NodeHardware gpus =
                NodeHardware.create(root, node, node.devices(Vendor.NVIDIA).orElseThrow());

        JsonNode devices =
                JSON.readTree(gpus.dir().resolve("devices.json").toFile()).path("devices");
        JsonNode links = devices.get(0).path("nvlinks");
        assertThat(links.propertyNames())
                .containsExactlyInAnyOrder(
                        DeviceIds.uuid(Vendor.NVIDIA, "nvl-0", 1), DeviceIds.uuid(Vendor.NVIDIA, "nvl-0", 2));
        assertThat(links.path(DeviceIds.uuid(Vendor.NVIDIA, "nvl-0", 2)).asInt())
                .isEqualTo(4);
        assertThat(devices.get(3).has("nvlinks")).as("outside every island").isFalse();
    }
}
