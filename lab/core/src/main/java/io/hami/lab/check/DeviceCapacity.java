package io.hami.lab.check;

import io.hami.lab.scenario.Vendor;

/**
 * One device as the scenario built it: the ground truth allocations are checked against.
 *
 * @param node   node name
 * @param vendor vendor
 * @param index  position on the node
 * @param id     the ID the scheduler writes for it in pod device strings
 * @param model  model name
 * @param slots  tasks that may share it (the split count), or 0 where the vendor has none
 * @param memory memory, MiB
 * @param cores  compute share of the whole device
 */
public record DeviceCapacity(
        String node, Vendor vendor, int index, String id, String model, int slots, int memory, int cores) {}
