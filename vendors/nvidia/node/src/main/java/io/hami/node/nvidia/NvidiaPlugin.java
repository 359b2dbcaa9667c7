package io.hami.node.nvidia;

import io.hami.backend.nvidia.NvidiaConfig;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.backend.nvidia.topology.DevicePairScoreCodec;
import io.hami.nativebind.nvml.Nvml;
import io.hami.nativebind.nvml.NvmlDevice;
import io.hami.nativebind.nvml.NvmlMemory;
import io.hami.node.nvidia.topology.NvmlLinks;
import io.hami.node.nvidia.topology.PairScores;
import io.hami.plugin.config.DeviceFilter;
import io.hami.plugin.config.HostPaths;
import io.hami.plugin.spi.AllocationException;
import io.hami.plugin.spi.AllocationTarget;
import io.hami.plugin.spi.ContainerGrant;
import io.hami.plugin.spi.HealthSource;
import io.hami.plugin.spi.InventoryPublisher;
import io.hami.plugin.spi.PhysicalDevice;
import io.hami.plugin.vendor.CardPlugin;
import io.hami.plugin.vendor.ReplicaSharing;
import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.spi.DeviceBackend;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * NVIDIA GPUs shared through HAMi-core: {@code deviceSplitCount} replicas {@code <UUID>-<n>} per GPU on the
 * count resource, the inventory in {@code hami.io/node-nvidia-register} (JSON), XID and reachability health.
 * The per-node {@code filterdevices} hides GPUs completely; a GPU whose NVML cannot tell its memory
 * (NOT_SUPPORTED) is advertised with {@code preConfiguredDeviceMemory} MiB, or skipped when that is 0, as
 * upstream does. With topology scoring on, the pair scores of the published GPUs go into {@code hami.io/node-nvidia-score}
 * with the register annotation, as upstream's {@code ENABLE_TOPOLOGY_SCORE=true} does.
 */
public final class NvidiaPlugin extends CardPlugin<NvmlDevice> implements InventoryPublisher {
    private static final Logger LOG = LoggerFactory.getLogger(NvidiaPlugin.class);

    private final Nvml nvml;
    private final ReplicaSharing sharing;
    private final long preConfiguredMiB;
    private final XidPolicy xids;
    private final HamiCoreGrant grant;
    private final boolean topologyScore;
    /** The asymmetric pairs last warned about, so that a lasting fault is logged once, not every cycle. */
    private List<String> warnedAsymmetric = List.of();

    /**
     * @param replicas         the device config's sharing under the plugin's overrides
     * @param hidden           the GPUs to hide ({@code filterdevices})
     * @param preConfiguredMiB memory of a GPU whose NVML answers NOT_SUPPORTED for it; 0: skip such a GPU
     * @param xids             which XIDs make a GPU unhealthy
     * @param topologyScore    publish the GPU pair scores
     */
    public NvidiaPlugin(
            Nvml nvml,
            DeviceBackend backend,
            NvidiaConfig config,
            ReplicaSharing replicas,
            DeviceFilter hidden,
            long preConfiguredMiB,
            XidPolicy xids,
            HostPaths paths,
            Supplier<UUID> cacheNames,
            boolean topologyScore) {
        super(
                backend,
                served(nvml.devices(), hidden, preConfiguredMiB),
                d -> device(d, preConfiguredMiB),
                List.of(replicas.resource(
                        config.resources().resourceCountName(), config.node().enableNumaTopology())));
        this.nvml = nvml;
        this.sharing = replicas;
        this.preConfiguredMiB = preConfiguredMiB;
        this.xids = xids;
        this.topologyScore = topologyScore;
        this.grant = new HamiCoreGrant(
                paths,
                replicas.memoryScaling(),
                config.node().libCudaLogLevel(),
                config.isolation().disableCoreLimit(),
                cacheNames);
    }

    /**
     * The GPUs the plugin serves, in NVML order: those {@code hidden} does not name and, among those whose memory
     * NVML cannot tell, only with a preconfigured memory. Each GPU left out is logged once.
     */
    static List<NvmlDevice> served(List<NvmlDevice> all, DeviceFilter hidden, long preConfiguredMiB) {
        List<NvmlDevice> served = new ArrayList<>(all.size());
        for (NvmlDevice d : all) {
            if (hidden.hides(d.index(), d.uuid())) {
                LOG.info("GPU {} ({}) hidden by the node config's filterdevices", d.index(), d.uuid());
            } else if (d.memory().isEmpty() && preConfiguredMiB <= 0) {
                LOG.warn(
                        "GPU {} ({}) skipped: NVML cannot tell its memory (not supported) and"
                                + " preConfiguredDeviceMemory is 0; set it to the memory to advertise, in MiB",
                        d.index(),
                        d.uuid());
            } else {
                served.add(d);
            }
        }
        return List.copyOf(served);
    }

    /** The runtime's view of a GPU; its memory is {@code preConfiguredMiB} where NVML cannot tell it. */
    static PhysicalDevice device(NvmlDevice d, long preConfiguredMiB) {
        long memoryMiB = d.memory().map(NvmlMemory::totalMiB).orElse(preConfiguredMiB);
        if (memoryMiB <= 0 && d.memory().isEmpty()) {
            throw new IllegalStateException("NVML cannot tell the memory of GPU " + d.index());
        }
        return new PhysicalDevice(d.index(), d.uuid(), d.uuid(), d.name(), memoryMiB, d.numaNode());
    }

    @Override
    public HealthSource openHealth() {
        return new NvidiaHealth(
                nvml, devices().stream().map(PhysicalDevice::index).toList(), xids);
    }

    /** {@link ReplicaSharing#rescan}; the model is prefixed with {@code NVIDIA-} unless it starts with {@code NVIDIA}. */
    @Override
    public List<DeviceInfo> scan(Set<Integer> unhealthy) {
        String keyword = backend().vendor();
        return sharing.rescan(
                devices(),
                i -> device(nvml.device(i), preConfiguredMiB),
                model -> model.startsWith(keyword) ? model : keyword + "-" + model,
                unhealthy);
    }

    /**
     * With topology scoring on, {@code hami.io/node-nvidia-score} for the GPUs just scanned (so not those
     * {@code filterdevices} hides). NVML failing here does not hold back the register annotation: the scores are
     * left out of this cycle (the Node keeps the last ones) and tried again on the next.
     */
    @Override
    public Map<String, String> annotations(List<DeviceInfo> scanned) {
        if (!topologyScore || scanned.isEmpty()) {
            return Map.of();
        }
        Map<String, Integer> indexes = new LinkedHashMap<>();
        devices().forEach(d -> indexes.put(d.schedulerId(), d.index()));
        try {
            Map<Integer, String> gpus = new LinkedHashMap<>();
            for (DeviceInfo d : scanned) {
                Integer index = indexes.get(d.id());
                if (index == null) {
                    throw new IllegalStateException("scanned GPU " + d.id() + " is not one the plugin serves");
                }
                gpus.put(index, d.id());
            }
            PairScores.Scores scores = PairScores.scores(NvmlLinks.read(nvml, gpus));
            if (!scores.asymmetric().isEmpty() && !scores.asymmetric().equals(warnedAsymmetric)) {
                LOG.warn(
                        "GPU pairs {} have asymmetric P2P link data (one end sees NVLinks, the other none) and score 0;"
                                + " an NVLink or driver fault is likely",
                        scores.asymmetric());
            }
            warnedAsymmetric = scores.asymmetric();
            return Map.of(NvidiaKeys.SCORE, DevicePairScoreCodec.encode(scores.entries()));
        } catch (RuntimeException e) {
            LOG.warn("GPU pair scores not published this cycle: {}", e.getMessage());
            return Map.of();
        }
    }

    @Override
    public boolean answersHandshake() {
        return false;
    }

    @Override
    public ContainerGrant allocate(AllocationTarget target) throws AllocationException {
        return grant.of(target);
    }

    @Override
    public void close() {
        nvml.close();
    }
}
