package io.hami.scheduler.requeue;

import io.hami.scheduler.usage.Grant;
import io.hami.scheduler.usage.PodUsage;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Which vendors' devices one pod change gives back: the rule that decides when waiting pods are nudged. */
public final class Releases {
    private Releases() {}

    /**
     * The vendor keywords of which {@code after} holds less than {@code before} on the node {@code before} counted
     * on: every vendor when the pod stops counting (deleted, finished, its decision failed or undone), those whose
     * grant shrank (init containers done) otherwise. A pod whose allocation cannot be read releases nothing (its node
     * fails closed until it can), nor does one that held nothing.
     */
    public static Set<String> of(PodUsage before, PodUsage after) {
        if (!(before instanceof PodUsage.Counted held) || after instanceof PodUsage.Undecodable) {
            return Set.of();
        }
        Map<String, Grant> now =
                after instanceof PodUsage.Counted c && c.node().equals(held.node()) ? c.byVendor() : Map.of();
        var out = new TreeSet<String>();
        held.byVendor().forEach((vendor, g) -> {
            Grant left = now.getOrDefault(vendor, Grant.ZERO);
            if (left.slots() < g.slots() || left.mem() < g.mem() || left.cores() < g.cores()) {
                out.add(vendor);
            }
        });
        return out;
    }
}
