package io.hami.scheduler.fit;

import io.hami.protocol.device.DeviceInfo;
import io.hami.protocol.fit.DeviceUsage;
import io.hami.protocol.fit.FitContext;
import io.hami.protocol.fit.FitRules;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A node's devices as filter's fast path ({@link QuickFit}) reads them: per vendor, the free slots, memory and cores
 * of each device side by side in one primitive array. Built by the usage index once per change of the node (with its
 * snapshot), so deciding a node costs a few comparisons on a cache line or two, with no sort and no lock.
 */
public final class NodeSummary {
    /** Distinct device types and modes in the cluster that get an id (a type check is asked once per id and pod). */
    static final int SHAPES = 1024;

    private static final ConcurrentHashMap<String, Integer> SHAPE_IDS = new ConcurrentHashMap<>();
    private static final AtomicInteger NEXT_SHAPE = new AtomicInteger();
    /** Shared cordon answers of nodes without cordoned devices, one per rules: one object, always in cache. */
    private static final ConcurrentHashMap<FitRules, Cordon> NONE_CORDONED = new ConcurrentHashMap<>();

    private final String[] vendors;
    private final Devices[] devices;
    /** The last cordon set worked out, with the rules it is for (it depends only on the node's annotations). */
    private volatile Cordon cordon;

    private record Cordon(FitRules rules, Set<String> ids) {}

    /** One vendor's devices; read-only once built. */
    static final class Devices {
        static final int HEALTHY = 0;
        static final int USED = 1;
        /** {@code count - used}; both are never negative, so this cannot wrap. */
        static final int FREE_SLOTS = 2;

        static final int DEVMEM = 3;
        /** {@code devmem - usedmem} in int arithmetic, as the fit walk compares it. */
        static final int FREE_MEM = 4;

        static final int DEVCORE = 5;
        static final int USED_CORES = 6;
        /** {@code devcore - usedcores} in int arithmetic, as the fit walk compares it. */
        static final int FREE_CORES = 7;
        /** The id of the device's type and mode, or -1 past {@link #SHAPES}. */
        static final int SHAPE = 8;

        static final int STRIDE = 9;

        final DeviceUsage[] usages;
        /** Device {@code i}'s fields from {@code i * STRIDE}. */
        final int[] data;

        Devices(List<DeviceUsage> list) {
            usages = list.toArray(DeviceUsage[]::new);
            data = new int[usages.length * STRIDE];
            for (int i = 0; i < usages.length; i++) {
                DeviceUsage u = usages[i];
                DeviceInfo d = u.device();
                int b = i * STRIDE;
                data[b + HEALTHY] = d.health() ? 1 : 0;
                data[b + USED] = u.used();
                data[b + FREE_SLOTS] = d.count() - u.used();
                data[b + DEVMEM] = d.devmem();
                data[b + FREE_MEM] = d.devmem() - u.usedmem();
                data[b + DEVCORE] = d.devcore();
                data[b + USED_CORES] = u.usedcores();
                data[b + FREE_CORES] = d.devcore() - u.usedcores();
                data[b + SHAPE] = shapeOf(d);
            }
        }

        int size() {
            return usages.length;
        }
    }

    private NodeSummary(String[] vendors, Devices[] devices) {
        this.vendors = vendors;
        this.devices = devices;
    }

    /** The summary of {@code devices} (per vendor keyword, a node's devices with their usage). */
    public static NodeSummary of(Map<String, List<DeviceUsage>> devices) {
        var vendors = new String[devices.size()];
        var lists = new Devices[devices.size()];
        int k = 0;
        for (Map.Entry<String, List<DeviceUsage>> e : devices.entrySet()) {
            vendors[k] = e.getKey();
            lists[k] = new Devices(e.getValue());
            k++;
        }
        return new NodeSummary(vendors, lists);
    }

    private static int shapeOf(DeviceInfo d) {
        String key = d.type() + '\u0000' + d.mode();
        Integer id = SHAPE_IDS.get(key);
        if (id == null) {
            if (SHAPE_IDS.size() >= SHAPES) {
                return -1;
            }
            id = SHAPE_IDS.computeIfAbsent(key, k -> NEXT_SHAPE.getAndIncrement());
        }
        return id < SHAPES ? id : -1;
    }

    /** The devices of {@code vendor}, or null when the node has none. A node has one or two vendors: a scan is cheapest. */
    Devices of(String vendor) {
        for (int k = 0; k < vendors.length; k++) {
            if (vendors[k].equals(vendor)) {
                return devices[k];
            }
        }
        return null;
    }

    /** The cordoned device IDs already worked out for {@code rules}, or null. */
    Set<String> cordonedIfKnown(FitRules rules) {
        Cordon c = cordon;
        return c != null && c.rules() == rules ? c.ids() : null;
    }

    /** {@code rules.cordoned(context)}, worked out once per node and rules while the node does not change. */
    Set<String> cordoned(FitRules rules, FitContext context) {
        Cordon c = cordon;
        if (c == null || c.rules() != rules) {
            Set<String> ids = rules.cordoned(context);
            c = ids.isEmpty()
                    ? NONE_CORDONED.computeIfAbsent(rules, r -> new Cordon(r, Set.of()))
                    : new Cordon(rules, ids);
            cordon = c;
        }
        return c.ids();
    }
}
