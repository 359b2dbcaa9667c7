package io.hami.lab.check;

import io.hami.lab.scenario.Vendor;
import io.hami.protocol.device.ContainerDevice;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What a container must have been given, per vendor, for the devices its pod's allocated annotation grants it
 * (docs/upstream.md#nvidia-allocate and docs/upstream.md#other-vendors, design D7 in docs/design.md#d7). NVIDIA and
 * Moore Threads say it in the environment; * Cambricon and Hygon in the device nodes (Hygon also mounts a virtual-device file for a share of a card).
 */
public final class GrantRules {
    private GrantRules() {}

    /**
     * What one container received over all its Allocate calls.
     *
     * @param env     environment
     * @param devices device nodes, by container path
     * @param mounts  mounts, by container path
     */
    public record Received(Map<String, String> env, Collection<String> devices, Collection<String> mounts) {}

    /** Empty when the container received exactly what {@code granted} says, else what differs. */
    public static Optional<String> mismatch(
            Vendor vendor, List<ContainerDevice> granted, Received got, String node, DeviceInventory inventory) {
        var problems = new ArrayList<String>();
        switch (vendor) {
            case NVIDIA -> {
                // HAMi-core's contract: the UUIDs visible, one memory limit per device in order, the first device's
                // cores.
                expect(
                        got.env(),
                        "NVIDIA_VISIBLE_DEVICES",
                        granted.stream().map(ContainerDevice::uuid).distinct().collect(Collectors.joining(",")),
                        problems);
                for (int i = 0; i < granted.size(); i++) {
                    expect(
                            got.env(),
                            "CUDA_DEVICE_MEMORY_LIMIT_" + i,
                            granted.get(i).usedmem() + "m",
                            problems);
                }
                expect(got.env(), "CUDA_DEVICE_MEMORY_LIMIT_" + granted.size(), null, problems);
                expect(
                        got.env(),
                        "CUDA_DEVICE_SM_LIMIT",
                        Integer.toString(granted.getFirst().usedcores()),
                        problems);
            }
            case MTHREADS ->
                expect(
                        got.env(),
                        "MTHREADS_VISIBLE_DEVICES",
                        granted.stream()
                                .map(d -> Integer.toString(
                                        card(inventory, node, d).index()))
                                .distinct()
                                .collect(Collectors.joining(",")),
                        problems);
            case CAMBRICON -> {
                for (ContainerDevice d : granted) {
                    int card = card(inventory, node, d).index();
                    present(got.devices(), "/dev/cambricon_dev" + card, problems);
                    long instances = got.devices().stream()
                            .filter(p -> p.startsWith("/dev/cambricon-caps/cap_dev" + card + "_mi"))
                            .count();
                    long wanted = granted.stream()
                            .filter(g -> g.uuid().equals(d.uuid()))
                            .count();
                    if (instances != wanted) {
                        problems.add(wanted + " sMLU instance(s) of card " + card + " granted, " + instances
                                + " device node(s) given");
                    }
                }
            }
            case HYGON -> {
                present(got.devices(), "/dev/kfd", problems);
                long partial = 0;
                for (ContainerDevice d : granted) {
                    DeviceCapacity card = card(inventory, node, d);
                    // The lab's device files number render minors from 128, in card order.
                    present(got.devices(), "/dev/dri/renderD" + (128 + card.index()), problems);
                    if (d.usedcores() < 100 || d.usedmem() < card.memory()) {
                        partial++;
                    }
                }
                long vdev = got.mounts().stream()
                        .filter(m -> m.startsWith("/etc/vdev/"))
                        .count();
                if (vdev != partial) {
                    problems.add(partial + " share(s) of a card granted, " + vdev
                            + " virtual-device configuration(s) mounted");
                }
            }
        }
        return problems.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", problems));
    }

    /** The granted device as the scenario built it; the capacity check reports devices a node does not have. */
    private static DeviceCapacity card(DeviceInventory inventory, String node, ContainerDevice d) {
        return inventory.find(node, d.uuid()).orElse(new DeviceCapacity(node, null, -1, d.uuid(), "", 0, 0, 0));
    }

    private static void present(Collection<String> paths, String path, List<String> problems) {
        if (!paths.contains(path)) {
            problems.add("device node " + path + " not given");
        }
    }

    /** {@code want} null: the variable must be absent. */
    private static void expect(Map<String, String> env, String name, String want, List<String> problems) {
        String got = env.get(name);
        if (want == null ? got != null : !want.equals(got)) {
            problems.add(name + "=" + (got == null ? "(unset)" : got) + ", want " + (want == null ? "(unset)" : want));
        }
    }
}
