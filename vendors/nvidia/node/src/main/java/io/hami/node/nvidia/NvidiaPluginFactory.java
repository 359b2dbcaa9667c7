package io.hami.node.nvidia;

import io.hami.backend.nvidia.NvidiaConfig;
import io.hami.backend.nvidia.NvidiaKeys;
import io.hami.nativebind.nvml.Nvml;
import io.hami.plugin.spi.VendorPlugin;
import io.hami.plugin.spi.VendorSettings;
import io.hami.plugin.vendor.LibraryPluginFactory;
import io.hami.plugin.vendor.ReplicaSharing;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Service-provider entry of the NVIDIA plugin ({@code --backend nvidia}): NVML, then the cards; the XID policy
 * from {@code DP_DISABLE_HEALTHCHECKS} / {@code DP_ENABLE_HEALTHCHECKS}; the pair scores with {@code --topology-score}
 * or {@code ENABLE_TOPOLOGY_SCORE=true}.
 */
public final class NvidiaPluginFactory extends LibraryPluginFactory<Nvml> {
    private static final Logger LOG = LoggerFactory.getLogger(NvidiaPluginFactory.class);

    public NvidiaPluginFactory() {
        super("nvidia", NvidiaKeys.VENDOR, Nvml.SONAME, Nvml::open, Nvml::open);
    }

    @Override
    protected VendorPlugin open(Nvml nvml, VendorSettings s) {
        NvidiaConfig config = s.deviceConfig().section(NvidiaConfig.SECTION);
        NvidiaConfig.Node node = config.node();
        var replicas = ReplicaSharing.of(
                s.sharing(), node.deviceSplitCount(), node.deviceMemoryScaling(), node.deviceCoreScaling());
        XidPolicy xids = XidPolicy.fromEnv(System.getenv());
        xids.malformed().forEach(v -> LOG.warn("ignoring {}: not an XID", v));
        return new NvidiaPlugin(
                nvml,
                s.backend(NvidiaKeys.VENDOR),
                config,
                replicas,
                s.sharing().hiddenCards(),
                s.sharing().preConfiguredMemoryMiB(node.preConfiguredDeviceMemory()),
                xids,
                s.paths(),
                UUID::randomUUID,
                s.topologyScore() || topologyScoreByEnv(System.getenv()));
    }

    /** Upstream's chart sets {@code ENABLE_TOPOLOGY_SCORE="true"}; its plugin takes exactly {@code true} as on. */
    static boolean topologyScoreByEnv(Map<String, String> env) {
        return "true".equals(env.get("ENABLE_TOPOLOGY_SCORE"));
    }
}
