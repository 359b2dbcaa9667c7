package io.hami.lab.scenario;

import java.util.List;

/**
 * The accelerators of one vendor on a node.
 *
 * @param vendor vendor
 * @param model  model name as the native library reports it
 * @param count  devices on the node (the mocks hold at most 64)
 * @param memory memory per device, MiB
 * @param numa   NUMA nodes the devices are spread over, in order (the first {@code count/numa} on node 0, ...)
 * @param split  how many tasks may share one device (the plugin's split count; NVIDIA and Hygon)
 * @param nvlink NVIDIA only: NVLink islands, each a list of device indexes whose every pair is linked with
 *               {@code nvlinkLinks} links (for example {@code [[0,1,2,3],[4,5,6,7]]}); other pairs have none
 * @param nvlinkLinks links between two devices of one island (default 2)
 */
public record DeviceGroup(
        Vendor vendor,
        String model,
        Integer count,
        Integer memory,
        Integer numa,
        Integer split,
        List<List<Integer>> nvlink,
        Integer nvlinkLinks) {
    public DeviceGroup {
        count = count == null ? 1 : count;
        numa = numa == null ? 1 : numa;
        split = split == null ? 10 : split;
        // A missing island or index reads as -1, which the rules report; List.copyOf would refuse the null.
        nvlink = nvlink == null
                ? List.of()
                : nvlink.stream()
                        .map(island -> island == null
                                ? List.<Integer>of()
                                : island.stream().map(i -> i == null ? -1 : i).toList())
                        .toList();
        nvlinkLinks = nvlinkLinks == null ? 2 : nvlinkLinks;
    }

    /** A group without NVLink. */
    public DeviceGroup(Vendor vendor, String model, Integer count, Integer memory, Integer numa, Integer split) {
        this(vendor, model, count, memory, numa, split, null, null);
    }

    /** The island of device {@code index}, or -1 when it has no NVLink. */
    public int islandOf(int index) {
        for (int i = 0; i < nvlink.size(); i++) {
            if (nvlink.get(i).contains(index)) {
                return i;
            }
        }
        return -1;
    }

    /** The NUMA node of device {@code index}. */
    public int numaOf(int index) {
        return index * numa / count;
    }
}
