package io.hami.lab.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.node.DeviceIds;
import io.hami.lab.scenario.ScenarioLoader;
import io.hami.lab.scenario.Vendor;
import io.hami.protocol.device.ContainerDevice;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class GrantRulesTest {
    private static DeviceInventory inventory;

    @BeforeAll
    static void cluster() throws Exception {
        inventory = DeviceInventory.of(ScenarioLoader.parse("""
                name: vendors
                nodes:
                  - name: n
                    devices:
                      - {vendor: cambricon, model: MLU370, count: 2, memory: 24576}
                      - {vendor: mthreads, model: S4000, count: 2, memory: 49152}
                      - {vendor: hygon, model: Z100, count: 2, memory: 32768}
                """, "vendors.yaml"));
    }

    @Test
    void cambriconNeedsTheCardNodeAndOneInstancePerShare() {
        var granted = List.of(new ContainerDevice("n-0-cambricon-mlu-1", "MLU", 4096, 25));
        var good = new GrantRules.Received(
                Map.of(), List.of("/dev/cambricon_dev1", "/dev/cambricon-caps/cap_dev1_mi3"), List.of());
        var noInstance = new GrantRules.Received(Map.of(), List.of("/dev/cambricon_dev1"), List.of());

        assertThat(GrantRules.mismatch(Vendor.CAMBRICON, granted, good, "n-0", inventory))
                .isEmpty();
        assertThat(GrantRules.mismatch(Vendor.CAMBRICON, granted, noInstance, "n-0", inventory))
                .contains("1 sMLU instance(s) of card 1 granted, 0 device node(s) given");
    }

    @Test
    void mooreThreadsNamesTheCardIndexesInItsEnvironment() {
        var granted = List.of(new ContainerDevice("n-0-mthreads-1", "Mthreads", 4096, 4));

        assertThat(GrantRules.mismatch(
                        Vendor.MTHREADS,
                        granted,
                        new GrantRules.Received(Map.of("MTHREADS_VISIBLE_DEVICES", "1"), List.of(), List.of()),
                        "n-0",
                        inventory))
                .isEmpty();
        assertThat(GrantRules.mismatch(
                        Vendor.MTHREADS,
                        granted,
                        new GrantRules.Received(Map.of("MTHREADS_VISIBLE_DEVICES", "0"), List.of(), List.of()),
                        "n-0",
                        inventory))
                .contains("MTHREADS_VISIBLE_DEVICES=0, want 1");
    }

    @Test
    void hygonMountsAVirtualDeviceForEachShareOfACard() {
        String card1 = DeviceIds.uuid(Vendor.HYGON, "n-0", 1);
        var share = List.of(new ContainerDevice(card1, "HCU", 8000, 25));
        var whole = List.of(new ContainerDevice(card1, "HCU", 32768, 100));
        var devices = List.of("/dev/kfd", "/dev/mkfd", "/dev/dri/card1", "/dev/dri/renderD129");

        assertThat(GrantRules.mismatch(
                        Vendor.HYGON,
                        share,
                        new GrantRules.Received(Map.of(), devices, List.of("/etc/vdev/docker/vdev0.conf")),
                        "n-0",
                        inventory))
                .isEmpty();
        assertThat(GrantRules.mismatch(
                        Vendor.HYGON, whole, new GrantRules.Received(Map.of(), devices, List.of()), "n-0", inventory))
                .isEmpty();
        assertThat(GrantRules.mismatch(
                        Vendor.HYGON, share, new GrantRules.Received(Map.of(), devices, List.of()), "n-0", inventory))
                .contains("1 share(s) of a card granted, 0 virtual-device configuration(s) mounted");
        assertThat(GrantRules.mismatch(
                        Vendor.HYGON,
                        share,
                        new GrantRules.Received(Map.of(), List.of("/dev/kfd"), List.of("/etc/vdev/docker/vdev0.conf")),
                        "n-0",
                        inventory))
                .contains("device node /dev/dri/renderD129 not given");
    }

    @Test
    void nvidiaWantsNoMemoryLimitBeyondItsDevices() {
        String gpu = "GPU-1";
        var granted = List.of(new ContainerDevice(gpu, "NVIDIA", 1000, 10));
        var extra = new GrantRules.Received(
                Map.of(
                        "NVIDIA_VISIBLE_DEVICES",
                        gpu,
                        "CUDA_DEVICE_MEMORY_LIMIT_0",
                        "1000m",
                        "CUDA_DEVICE_MEMORY_LIMIT_1",
                        "1000m",
                        "CUDA_DEVICE_SM_LIMIT",
                        "10"),
                List.of(),
                List.of());

        assertThat(GrantRules.mismatch(Vendor.NVIDIA, granted, extra, "n-0", inventory))
                .contains("CUDA_DEVICE_MEMORY_LIMIT_1=1000m, want (unset)");
    }
}
