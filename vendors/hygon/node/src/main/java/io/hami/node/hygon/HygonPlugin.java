package io.hami.node.hygon;

import io.hami.backend.hygon.HygonConfig;
import io.hami.nativebind.hydmi.Hydmi;
import io.hami.nativebind.rocm.RocmDevice;
import io.hami.nativebind.rocm.RocmSmi;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.spi.AllocationException;
import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.ContainerGrant;
import io.hami.plugin.spi.HealthSource;
import io.hami.plugin.spi.InventoryPublisher;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.vendor.CardPlugin;
import io.hami.plugin.vendor.DeviceNodes;
import io.hami.plugin.vendor.PodInstances;
import io.hami.plugin.vendor.ReplicaSharing;
import io.hami.protocol.device.ContainerDevice;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hygon HCUs: {@code splitCount} replicas {@code <serial>-<n>} per card on the count resource, the inventory in
 * {@code hami.io/node-hcu-register} (legacy colon form) with the handshake answered, and for a share of a card a
 * virtual HCU created through hydmi. Containers get {@code /dev/kfd}, {@code /dev/mkfd}, the card's DRM nodes and,
 * for a virtual HCU, its configuration.
 */
public final class HygonPlugin extends CardPlugin<RocmDevice> implements InventoryPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(HygonPlugin.class);
    /** Which pod each virtual HCU was created for, under {@link HostPaths#stateDir()}. */
    static final String INSTANCES_FILE = "hygon-virtual-hcus";
    /** Upstream's HCU plugin shares a card among 4 tasks unless told otherwise. */
    static final int DEFAULT_SPLIT_COUNT = 4;

    static final String CONTAINER_VDEV_DIR = "/etc/vdev/docker/";
    static final String CONTAINER_HYHAL = "/opt/hyhal";
    /** DRM render nodes are numbered from 128 after their card node. */
    private static final int RENDER_MINOR_BASE = 128;

    private final RocmSmi rocm;
    private final ReplicaSharing sharing;
    private final VirtualHcu virtual;
    private final DeviceNodes nodes;
    private final Path hyhal;
    private final PodInstances instances;

    /** {@code replicas}: {@link #DEFAULT_SPLIT_COUNT}, scalings 1, under the plugin's overrides. */
    public HygonPlugin(
            RocmSmi rocm,
            Hydmi hydmi,
            DeviceBackend backend,
            HygonConfig config,
            ReplicaSharing replicas,
            HostPaths paths) {
        super(
                backend,
                rocm.devices(),
                HygonPlugin::device,
                List.of(replicas.resource(config.resourceCountName(), false)));
        this.rocm = rocm;
        this.sharing = replicas;
        this.virtual = new VirtualHcu(hydmi, paths.vdevDir());
        this.nodes = new DeviceNodes(paths);
        this.hyhal = paths.hyhalDir();
        this.instances = PodInstances.open(paths.stateDir().resolve(INSTANCES_FILE));
    }

    private static PhysicalDevice device(RocmDevice c) {
        var id = c.identity();
        return new PhysicalDevice(
                c.index(),
                id.serial(),
                id.serial(),
                id.name(),
                c.memory().totalBytes() >> 20,
                c.location().numaNode());
    }

    @Override
    public HealthSource openHealth() {
        return new HygonHealth(rocm, devices().size());
    }

    /** {@link ReplicaSharing#rescan}; the type is {@code HCU-<model>}. */
    @Override
    public List<DeviceInfo> scan(Set<Integer> unhealthy) {
        String keyword = backend().vendor();
        return sharing.rescan(devices(), i -> device(rocm.device(i)), model -> keyword + "-" + model, unhealthy);
    }

    @Override
    public boolean answersHandshake() {
        return true;
    }

    @Override
    public ContainerGrant allocate(AllocationTarget target) throws AllocationException {
        List<ContainerGrant.DeviceNode> devs = new ArrayList<>();
        devs.add(nodes.node("/dev/kfd", "rwm"));
        devs.add(nodes.node("/dev/mkfd", "rwm"));
        List<ContainerGrant.Mount> mounts = new ArrayList<>();
        for (int i = 0; i < target.granted().size(); i++) {
            ContainerDevice share = target.granted().get(i);
            RocmDevice card = card(target.cards().get(i).index());
            devs.add(nodes.node("/dev/dri/card" + (card.location().renderMinor() - RENDER_MINOR_BASE), "rw"));
            devs.add(nodes.node("/dev/dri/renderD" + card.location().renderMinor(), "rw"));
            if (share.usedcores() < 100
                    || share.usedmem() < target.cards().get(i).memoryMiB()) {
                VirtualHcu.Created created = virtual.create(card, share);
                instances.add(target.podUid(), created.id());
                mounts.add(new ContainerGrant.Mount(
                        CONTAINER_VDEV_DIR + created.conf().getFileName(),
                        created.conf().toString(),
                        true));
            }
        }
        if (Files.isDirectory(hyhal)) {
            mounts.add(new ContainerGrant.Mount(CONTAINER_HYHAL, hyhal.toString(), true));
        }
        return new ContainerGrant(Map.of(), mounts, devs, Map.of());
    }

    @Override
    public Set<String> podsHoldingInstances() {
        return instances.pods();
    }

    @Override
    public void release(String podUid) {
        for (int id : instances.take(podUid)) {
            try {
                virtual.destroy(id);
            } catch (IOException | RuntimeException e) {
                LOG.warn("virtual HCU {} of ended pod {} could not be destroyed: {}", id, podUid, e.getMessage());
            }
        }
    }

    @Override
    public void close() {
        rocm.close();
    }
}
