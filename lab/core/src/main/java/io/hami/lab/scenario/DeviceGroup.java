package io.hami.lab.scenario;

/**
 * The accelerators of one vendor on a node.
 *
 * @param vendor vendor
 * @param model  model name as the native library reports it
 * @param count  devices on the node (the mocks hold at most 64)
 * @param memory memory per device, MiB
 * @param numa   NUMA nodes the devices are spread over, in order (the first {@code count/numa} on node 0, ...)
 * @param split  how many tasks may share one device (the plugin's split count; NVIDIA and Hygon)
 */
public record DeviceGroup(Vendor vendor, String model, Integer count, Integer memory, Integer numa, Integer split) {
    public DeviceGroup {
        count = count == null ? 1 : count;
        numa = numa == null ? 1 : numa;
        split = split == null ? 10 : split;
    }

    /** The NUMA node of device {@code index}. */
    public int numaOf(int index) {
        return index * numa / count;
    }
}
