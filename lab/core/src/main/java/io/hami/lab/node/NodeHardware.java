package io.hami.lab.node;

import io.hami.lab.scenario.DeviceGroup;
import io.hami.lab.scenario.NodeSpec;
import io.hami.lab.scenario.Vendor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.json.JsonMapper;

/**
 * One vendor's mock hardware on one node: a folder with its own copy of the mock libraries, the
 * {@code devices.json} the scenario describes, and the {@code control.json} through which faults are injected.
 */
public final class NodeHardware {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Path dir;
    private final Set<Integer> unhealthy = new TreeSet<>();

    private NodeHardware(Path dir) {
        this.dir = dir;
    }

    /** Creates {@code <root>/<node>/<vendor>/} with the libraries and the device file. */
    public static NodeHardware create(Path root, NodeSpec node, DeviceGroup devices) throws IOException {
        Path dir = root.resolve(node.name()).resolve(devices.vendor().yamlName());
        MockLibraries.copyTo(devices.vendor(), dir);
        Files.writeString(dir.resolve("devices.json"), JSON.writeValueAsString(deviceFile(node.name(), devices)));
        return new NodeHardware(dir);
    }

    static Map<String, Object> deviceFile(String node, DeviceGroup group) {
        var devices = new ArrayList<Map<String, Object>>();
        for (int i = 0; i < group.count(); i++) {
            var d = new LinkedHashMap<String, Object>();
            d.put("uuid", DeviceIds.uuid(group.vendor(), node, i));
            d.put("name", group.model());
            d.put("memoryMiB", group.memory());
            d.put("numaNode", group.numaOf(i));
            d.put("pciBusId", DeviceIds.pciBusId(group.vendor(), i));
            d.put("minor", minor(group.vendor(), i));
            d.put("healthy", true);
            Map<String, Integer> links = nvlinks(node, group, i);
            if (!links.isEmpty()) {
                d.put("nvlinks", links);
            }
            devices.add(d);
        }
        return Map.of("devices", devices);
    }

    /**
     * The mock's {@code nvlinks} of device {@code index}: every other device of its island, with the group's link
     * count (P2P levels are left to the mock's default, from the NUMA nodes).
     */
    static Map<String, Integer> nvlinks(String node, DeviceGroup group, int index) {
        int island = group.islandOf(index);
        var links = new LinkedHashMap<String, Integer>();
        if (island >= 0) {
            for (int peer : group.nvlink().get(island)) {
                if (peer != index) {
                    links.put(DeviceIds.uuid(group.vendor(), node, peer), group.nvlinkLinks());
                }
            }
        }
        return links;
    }

    /** Device-node minor: the index, except Hygon's, which is a DRM render minor (numbered from 128). */
    static int minor(Vendor vendor, int index) {
        return vendor == Vendor.HYGON ? 128 + index : index;
    }

    /** The folder of this vendor's files on the node. */
    public Path dir() {
        return dir;
    }

    /** Marks a device unhealthy or healthy again through the control file, which the mock re-reads while running. */
    public synchronized void setHealthy(int index, boolean healthy) throws IOException {
        if (healthy) {
            unhealthy.remove(index);
        } else {
            unhealthy.add(index);
        }
        Path tmp = dir.resolve("control.json.tmp");
        Files.writeString(tmp, JSON.writeValueAsString(Map.of("unhealthy", List.copyOf(unhealthy))));
        Files.move(
                tmp, dir.resolve("control.json"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
