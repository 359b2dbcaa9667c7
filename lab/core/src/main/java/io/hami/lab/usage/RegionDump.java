package io.hami.lab.usage;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code hami-workload --dump} printed of a region: the C side's own reading, independent of the Java reader
 * the monitor uses, so the two can be compared.
 */
final class RegionDump {
    private RegionDump() {}

    /** Per device: its UUID, its limit and the memory of every process summed. */
    static List<ContainerUsage> parse(String dump, String pod, String container) {
        var uuids = new HashMap<Integer, String>();
        var limits = new HashMap<Integer, Long>();
        Map<Integer, Long> used = new HashMap<>();
        for (String line : dump.split("\n")) {
            String[] f = line.strip().split(" ");
            switch (f[0]) {
                case "device" -> {
                    int d = Integer.parseInt(f[1]);
                    uuids.put(d, f[2]);
                    limits.put(d, Long.parseUnsignedLong(f[3]));
                }
                // memory <slot> <device> <context> <module> <data> <offset> <total> <sm>
                case "memory" -> used.merge(Integer.parseInt(f[2]), Long.parseUnsignedLong(f[7]), Long::sum);
                default -> {}
            }
        }
        var out = new ArrayList<ContainerUsage>();
        for (int d = 0; d < uuids.size(); d++) {
            if (!uuids.containsKey(d)) {
                throw new IllegalArgumentException("dump lists no device " + d + ":\n" + dump);
            }
            out.add(new ContainerUsage(pod, container, d, uuids.get(d), used.getOrDefault(d, 0L), limits.get(d)));
        }
        return out;
    }
}
