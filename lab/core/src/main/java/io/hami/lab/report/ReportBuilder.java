package io.hami.lab.report;

import io.fabric8.kubernetes.api.model.Pod;
import io.hami.lab.check.DeviceAccounting;
import io.hami.lab.check.DeviceCapacity;
import io.hami.lab.check.DeviceInventory;
import io.hami.lab.observe.PodState;
import io.hami.lab.observe.Sample;
import io.hami.protocol.spi.DeviceBackends;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The aggregates of a report: pod states, reasons grouped, and each device's allocation at the end and at its peak. */
public final class ReportBuilder {
    private ReportBuilder() {}

    public static Map<PodState, Integer> states(List<Pod> pods) {
        var out = new EnumMap<PodState, Integer>(PodState.class);
        pods.forEach(p -> out.merge(PodState.of(p), 1, Integer::sum));
        return out;
    }

    /** kube-scheduler's message of each unschedulable pod, with how many pods got it, most frequent first. */
    public static Map<String, Integer> unschedulable(List<Pod> pods) {
        var counts = new TreeMap<String, Integer>();
        for (Pod p : pods) {
            if (PodState.of(p) == PodState.UNSCHEDULABLE) {
                p.getStatus().getConditions().stream()
                        .filter(c -> "PodScheduled".equals(c.getType()))
                        .findFirst()
                        .ifPresent(c -> counts.merge(c.getMessage(), 1, Integer::sum));
            }
        }
        return byCount(counts);
    }

    /**
     * The reason and message of each failed pod, with how many, most frequent first. The pod's own name is replaced
     * by {@code <pod>} so that pods failing for the same reason are counted together.
     */
    public static Map<String, Integer> failed(List<Pod> pods) {
        var counts = new TreeMap<String, Integer>();
        for (Pod p : pods) {
            if (PodState.of(p) == PodState.FAILED) {
                String ns = p.getMetadata().getNamespace();
                String name = p.getMetadata().getName();
                String message = String.valueOf(p.getStatus().getMessage())
                        .replace(ns + "/" + name, "<pod>")
                        .replaceAll("\\b" + java.util.regex.Pattern.quote(name) + "\\b", "<pod>");
                counts.merge(p.getStatus().getReason() + ": " + message, 1, Integer::sum);
            }
        }
        return byCount(counts);
    }

    public static List<DeviceRow> devices(
            DeviceInventory inventory, List<Pod> pods, List<Sample> samples, DeviceBackends backends) {
        Map<DeviceAccounting.DeviceKey, DeviceAccounting.Usage> now =
                DeviceAccounting.of(pods, backends).usage();
        var rows = new ArrayList<DeviceRow>();
        for (DeviceCapacity d : inventory.all()) {
            var key = new DeviceAccounting.DeviceKey(d.node(), d.id());
            DeviceAccounting.Usage u = now.getOrDefault(key, new DeviceAccounting.Usage(0, 0, 0));
            long peakMemory = u.memory();
            long peakCores = u.cores();
            for (Sample s : samples) {
                DeviceAccounting.Usage at = s.devices().get(key);
                if (at != null) {
                    peakMemory = Math.max(peakMemory, at.memory());
                    peakCores = Math.max(peakCores, at.cores());
                }
            }
            rows.add(new DeviceRow(d, u.memory(), u.cores(), u.tasks(), peakMemory, peakCores));
        }
        return rows;
    }

    private static Map<String, Integer> byCount(Map<String, Integer> counts) {
        var out = new LinkedHashMap<String, Integer>();
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }
}
