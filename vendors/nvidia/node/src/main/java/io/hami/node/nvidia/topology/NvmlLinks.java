package io.hami.node.nvidia.topology;

import io.hami.nativebind.nvml.Nvml;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Reads what {@link PairScores} needs from NVML, as upstream's plugin does (HAMi's {@code links.go}). */
public final class NvmlLinks {
    private NvmlLinks() {}

    /**
     * The way from each GPU to each other, in the order of {@code uuids}: NVML's common ancestor, and the NVLinks
     * between them. Those are the GPU's active links whose remote PCI bus id is the peer's; without any such link,
     * when both GPUs have links to NVSwitches, the fewer of the two GPUs' switch links (the peer then is reached
     * through the switches).
     *
     * @param uuids the GPUs to score, by NVML index
     */
    public static List<PairScores.Gpu> read(Nvml nvml, Map<Integer, String> uuids) {
        Map<Integer, String> busIds = new HashMap<>();
        uuids.keySet().forEach(i -> busIds.put(i, busId(nvml.device(i).pci().busId())));
        Map<Integer, Integer> switchLinks = new HashMap<>();
        List<PairScores.Gpu> gpus = new ArrayList<>(uuids.size());
        uuids.forEach((i, uuid) -> {
            List<String> remotes =
                    nvml.nvLinkRemoteBusIds(i).stream().map(NvmlLinks::busId).toList();
            Map<String, PairScores.Link> links = new HashMap<>();
            uuids.forEach((j, peer) -> {
                if (!i.equals(j)) {
                    int direct = Collections.frequency(remotes, busIds.get(j));
                    int nvlinks = (direct >= 1 && direct <= PairScores.MAX_NVLINKS) || remotes.isEmpty()
                            ? direct
                            : throughSwitches(
                                    switchLinks.computeIfAbsent(i, nvml::nvSwitchLinks),
                                    switchLinks.computeIfAbsent(j, nvml::nvSwitchLinks));
                    links.put(peer, new PairScores.Link(nvml.topologyCommonAncestor(i, j), nvlinks));
                }
            });
            gpus.add(new PairScores.Gpu(uuid, links));
        });
        return List.copyOf(gpus);
    }

    /** NVLinks between two GPUs through NVSwitches: the fewer of their switch links, 0 unless both have some. */
    static int throughSwitches(int from, int to) {
        return from > 0 && to > 0 ? Math.min(from, to) : 0;
    }

    /** Upstream's form of a bus id for comparing: lower case, an 8-digit domain cut to 4 digits. */
    static String busId(String nvmlBusId) {
        String id = nvmlBusId.toLowerCase(Locale.ROOT);
        return id.equals("0000") || !id.startsWith("0000") ? id : id.substring(4);
    }
}
