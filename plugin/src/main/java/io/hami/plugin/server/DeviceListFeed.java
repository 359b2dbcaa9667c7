package io.hami.plugin.server;

import io.hami.plugin.health.HealthBoard;
import io.hami.plugin.kubeletapi.Device;
import io.hami.plugin.kubeletapi.ListAndWatchResponse;
import io.hami.plugin.kubeletapi.NUMANode;
import io.hami.plugin.kubeletapi.TopologyInfo;
import io.hami.plugin.spi.KubeletResource;
import io.hami.plugin.spi.PhysicalDevice;
import java.util.List;

/**
 * The full device list of one resource as ListAndWatch sends it: every replica ID of every card, with the
 * card's health ({@code Healthy}/{@code Unhealthy}, the kubelet's exact strings) and, where enabled, its NUMA
 * node.
 */
public final class DeviceListFeed {
    static final String HEALTHY = "Healthy";
    static final String UNHEALTHY = "Unhealthy";

    private final KubeletResource resource;
    private final List<PhysicalDevice> cards;
    private final HealthBoard health;

    public DeviceListFeed(KubeletResource resource, List<PhysicalDevice> cards, HealthBoard health) {
        this.resource = resource;
        this.cards = List.copyOf(cards);
        this.health = health;
    }

    public HealthBoard health() {
        return health;
    }

    public ListAndWatchResponse current() {
        ListAndWatchResponse.Builder list = ListAndWatchResponse.newBuilder();
        for (PhysicalDevice card : cards) {
            String state = health.isHealthy(card.index()) ? HEALTHY : UNHEALTHY;
            for (String id : resource.replicas().apply(card)) {
                Device.Builder device = Device.newBuilder().setID(id).setHealth(state);
                if (resource.numaTopology() && card.numaNode() >= 0) {
                    device.setTopology(TopologyInfo.newBuilder()
                            .addNodes(NUMANode.newBuilder().setID(card.numaNode())));
                }
                list.addDevices(device);
            }
        }
        return list.build();
    }
}
