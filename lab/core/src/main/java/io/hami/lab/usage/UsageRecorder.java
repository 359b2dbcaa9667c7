package io.hami.lab.usage;

import io.hami.lab.scenario.UsageProfile;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The node monitors' figures sampled over the run, per container and GPU. Thread-safe. */
public final class UsageRecorder {
    private final Map<String, List<UsageSeries.Point>> points = new LinkedHashMap<>();
    private final Map<String, ContainerUsage> last = new HashMap<>();

    public synchronized void sample(Duration at, List<ContainerUsage> figures) {
        for (ContainerUsage u : figures) {
            points.computeIfAbsent(u.key(), k -> new ArrayList<>()).add(new UsageSeries.Point(at, u.usedBytes()));
            last.put(u.key(), u);
        }
    }

    /** The series, with the profile of each container whose workload was started. */
    public synchronized List<UsageSeries> series(List<ContainerWorkloads.Started> started) {
        var profiles = new HashMap<String, UsageProfile>();
        started.forEach(
                s -> profiles.put(s.container().pod() + "/" + s.container().name(), s.profile()));
        var out = new ArrayList<UsageSeries>();
        points.forEach((key, list) -> {
            ContainerUsage u = last.get(key);
            UsageProfile p = profiles.get(u.pod() + "/" + u.container());
            out.add(new UsageSeries(u, p == null ? "" : describe(p), p != null && p.overLimit(), list));
        });
        return out;
    }

    static String describe(UsageProfile p) {
        return p.profile().yamlName() + ", memory " + p.memory() + ", sm " + p.sm()
                + (p.overLimit() ? ", over limit" : "");
    }
}
