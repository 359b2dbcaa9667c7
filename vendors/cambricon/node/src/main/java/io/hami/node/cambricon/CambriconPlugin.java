package io.hami.node.cambricon;

import io.hami.backend.cambricon.CambriconConfig;
import io.hami.nativebind.cndev.Cndev;
import io.hami.nativebind.cndev.CndevDevice;
import io.hami.nativebind.cndev.CndevSmluInstance;
import io.hami.nativebind.cndev.CndevSmluProfile;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.spi.AllocationException;
import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.ContainerGrant;
import io.hami.plugin.spi.HealthSource;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.vendor.Capacity;
import io.hami.plugin.vendor.CardPlugin;
import io.hami.plugin.vendor.DeviceNodes;
import io.hami.plugin.vendor.PodInstances;
import io.hami.plugin.vendor.PollingHealth;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.spi.DeviceBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cambricon MLUs in dynamic-sMLU mode. The scheduler reads the node's capacity (design D1, docs/design.md#d1), so the plugin advertises
 * 100 {@code vcore} IDs and one {@code vmemory} ID per 256 MiB of every card; those two resources grant
 * nothing themselves. The count resource ({@code cambricon.com/vmlu}, 100 IDs per card, as many tasks as the
 * scheduler lets share a card) carries the decision: Allocate creates an sMLU instance with the granted share
 * of cores and memory through CNDev and returns the card's and the instance's device nodes.
 */
public final class CambriconPlugin extends CardPlugin<CndevDevice> {
    private static final Logger LOG = LoggerFactory.getLogger(CambriconPlugin.class);
    /** Which pod each sMLU instance was created for, under {@link HostPaths#stateDir()}. */
    static final String INSTANCES_FILE = "cambricon-smlu-instances";
    /** The scheduler's capacity layout: device {@code i} of node {@code n} is {@code n-cambricon-mlu-i}. */
    static final String SCHEDULER_ID_INFIX = "-cambricon-mlu-";

    static final int MEMORY_UNIT_MIB = 256;
    static final int CORES_PER_CARD = 100;
    static final int TASKS_PER_CARD = 100;

    private final Cndev cndev;
    private final DeviceNodes nodes;
    private final PodInstances instances;

    public CambriconPlugin(Cndev cndev, DeviceBackend backend, CambriconConfig config, String node, HostPaths paths) {
        super(
                backend,
                cndev.devices(),
                c -> new PhysicalDevice(
                        c.index(),
                        c.uuid(),
                        node + SCHEDULER_ID_INFIX + c.index(),
                        c.name(),
                        c.memoryTotalMiB(),
                        c.numaNode()),
                List.of(
                        Capacity.decision(config.resourceCountName(), "vmlu", TASKS_PER_CARD),
                        Capacity.advertised(config.resourceCoreName(), "vcore", 1, d -> CORES_PER_CARD),
                        Capacity.advertised(
                                config.resourceMemoryName(), "vmemory", 1, Capacity.memoryUnits(MEMORY_UNIT_MIB))));
        this.cndev = cndev;
        this.nodes = new DeviceNodes(paths);
        this.instances = PodInstances.open(paths.stateDir().resolve(INSTANCES_FILE));
    }

    @Override
    public HealthSource openHealth() {
        return new PollingHealth(devices().size(), i -> cndev.health(i).usable());
    }

    /** One sMLU instance per granted card, from a profile of exactly the granted cores and memory. */
    @Override
    public ContainerGrant allocate(AllocationTarget target) throws AllocationException {
        List<ContainerGrant.DeviceNode> devs = new ArrayList<>();
        for (int i = 0; i < target.granted().size(); i++) {
            ContainerDevice share = target.granted().get(i);
            CndevDevice card = card(target.cards().get(i).index());
            CndevSmluInstance instance;
            try {
                int profile = profileFor(card.index(), share.usedcores(), (long) share.usedmem() << 20);
                int handle = cndev.createSmluInstance(card.index(), profile, "");
                instances.add(target.podUid(), handle);
                instance = cndev.smluInstance(handle);
            } catch (RuntimeException e) {
                throw new AllocationException(
                        "sMLU instance of " + share.usedcores() + "% and " + share.usedmem() + " MiB on MLU "
                                + card.index() + " (" + card.uuid() + "): " + e.getMessage(),
                        e);
            }
            devs.add(nodes.node("/dev/cambricon_dev" + card.minorNumber(), "rw"));
            devs.add(nodes.node(instance.devNodeName(), "rw"));
        }
        if (nodes.exists("/dev/cambricon_ctl")) {
            devs.add(nodes.node("/dev/cambricon_ctl", "rw"));
        }
        return new ContainerGrant(Map.of(), List.of(), devs, Map.of());
    }

    private int profileFor(int card, int quota, long memoryBytes) {
        for (CndevSmluProfile p : cndev.smluProfiles(card)) {
            if (p.mluQuota() == quota && p.memoryBytes() == memoryBytes) {
                return p.profileId();
            }
        }
        return cndev.createSmluProfile(card, quota, memoryBytes);
    }

    @Override
    public Set<String> podsHoldingInstances() {
        return instances.pods();
    }

    @Override
    public void release(String podUid) {
        for (int handle : instances.take(podUid)) {
            try {
                cndev.destroySmluInstance(handle);
            } catch (RuntimeException e) {
                LOG.warn("sMLU instance {} of ended pod {} could not be destroyed: {}", handle, podUid, e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        cndev.close();
    }
}
