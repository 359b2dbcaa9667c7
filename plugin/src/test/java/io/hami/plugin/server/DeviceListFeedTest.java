package io.hami.plugin.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.plugin.health.HealthBoard;
import io.hami.plugin.kubeletapi.Device;
import io.hami.plugin.kubeletapi.NUMANode;
import io.hami.plugin.kubeletapi.TopologyInfo;
import io.hami.plugin.spi.KubeletResource;
import io.hami.plugin.spi.PhysicalDevice;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The kubelet's device list: replica IDs, exact health strings, NUMA only where enabled and known. */
class DeviceListFeedTest {
    static final List<PhysicalDevice> CARDS = List.of(
            new PhysicalDevice(0, "GPU-a", "GPU-a", "m", 1024, 1),
            new PhysicalDevice(1, "GPU-b", "GPU-b", "m", 1024, -1));

    @Test
    void listsEveryReplicaWithItsCardsHealthAndNuma() {
        HealthBoard board = new HealthBoard();
        board.update(Set.of(1));
        var feed = new DeviceListFeed(
                new KubeletResource("nvidia.com/gpu", true, KubeletResource.numbered(2), true), CARDS, board);

        assertThat(feed.current().getDevicesList())
                .containsExactly(
                        device("GPU-a-0", "Healthy", 1),
                        device("GPU-a-1", "Healthy", 1),
                        Device.newBuilder()
                                .setID("GPU-b-0")
                                .setHealth("Unhealthy")
                                .build(),
                        Device.newBuilder()
                                .setID("GPU-b-1")
                                .setHealth("Unhealthy")
                                .build());
    }

    @Test
    void socketNamesFollowUpstream() {
        assertThat(new KubeletResource("nvidia.com/gpu", true, KubeletResource.numbered(1), false).socketName())
                .isEqualTo("nvidia-gpu.sock");
        assertThat(new KubeletResource("cambricon.com/mlu.smlu.vcore", false, KubeletResource.numbered(1), false)
                        .socketName())
                .isEqualTo("cambricon-mlu.smlu.vcore.sock");
    }

    @Test
    void aHealthReportEqualToTheCurrentStateIsNoChange() {
        HealthBoard board = new HealthBoard();
        int[] changes = new int[1];
        board.listen(() -> changes[0]++);
        board.update(Set.of());
        board.update(Set.of(0));
        board.update(Set.of(0));
        board.update(Set.of());
        assertThat(changes[0]).isEqualTo(2);
    }

    private static Device device(String id, String health, long numa) {
        return Device.newBuilder()
                .setID(id)
                .setHealth(health)
                .setTopology(
                        TopologyInfo.newBuilder().addNodes(NUMANode.newBuilder().setID(numa)))
                .build();
    }
}
