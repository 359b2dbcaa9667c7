package io.hami.lab.check;

import io.hami.lab.usage.ContainerUsage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The {@code usage} invariant over plain figures: the node monitors report exactly what the containers' workloads
 * last wrote (memory and limit per GPU, read after the workloads stopped and the monitors scanned once more), and
 * no container is reported above its memory limit unless its profile says {@code overLimit}.
 */
public final class UsageAgreement {
    public static final String NAME = "usage";

    private UsageAgreement() {}

    /**
     * @param written    what each workload last wrote, per container and GPU
     * @param reported   what the monitors report
     * @param overLimit  the containers ({@code namespace/pod/container}) allowed above their limit
     * @param problems   workloads that did not start or end cleanly
     */
    public static Invariant check(
            List<ContainerUsage> written, List<ContainerUsage> reported, Set<String> overLimit, List<String> problems) {
        var violations = new ArrayList<>(problems);
        Map<String, ContainerUsage> byKey = new HashMap<>();
        reported.forEach(r -> byKey.put(r.key(), r));
        var expected = new HashMap<String, ContainerUsage>();
        for (ContainerUsage w : written) {
            expected.put(w.key(), w);
            ContainerUsage r = byKey.get(w.key());
            if (r == null) {
                violations.add(w.key() + ": the workload wrote " + figures(w) + ", the monitor reports nothing");
            } else if (r.usedBytes() != w.usedBytes()
                    || r.limitBytes() != w.limitBytes()
                    || !r.uuid().equals(w.uuid())) {
                violations.add(w.key() + ": the workload wrote " + figures(w) + ", the monitor reports " + figures(r));
            }
        }
        for (ContainerUsage r : reported) {
            if (!expected.containsKey(r.key())) {
                violations.add(r.key() + ": the monitor reports " + figures(r) + " but no workload wrote it");
            }
            if (r.usedBytes() > r.limitBytes() && !overLimit.contains(r.pod() + "/" + r.container())) {
                violations.add(r.key() + ": reported above its limit (" + figures(r)
                        + ") and its profile does not say overLimit");
            }
        }
        return new Invariant(
                NAME,
                "the node monitors report what every container's workload last wrote, and no container above its "
                        + "memory limit unless its profile says overLimit",
                written.size(),
                violations);
    }

    private static String figures(ContainerUsage u) {
        return String.format(Locale.ROOT, "%,d of %,d bytes on %s", u.usedBytes(), u.limitBytes(), u.uuid());
    }
}
