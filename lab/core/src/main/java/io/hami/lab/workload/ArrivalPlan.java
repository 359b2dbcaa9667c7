package io.hami.lab.workload;

import io.hami.lab.scenario.Scenario;
import io.hami.lab.scenario.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * When each pod of a scenario arrives and how long it runs: Poisson arrivals at each workload's rate and
 * lifetimes drawn from its range, all from the scenario's seed. Each workload draws from its own stream, so
 * editing one workload does not move the pods of the others.
 */
public final class ArrivalPlan {
    private ArrivalPlan() {}

    /** Every pod of {@code scenario}, in arrival order. */
    public static List<PodPlan> of(Scenario scenario) {
        var plans = new ArrayList<PodPlan>();
        for (Workload w : scenario.workloads()) {
            var random = new SplittableRandom(scenario.seed() * 31 + w.name().hashCode());
            double t = w.start().toNanos() / 1e9;
            for (int i = 0; i < w.count(); i++) {
                if (i > 0) {
                    t += -Math.log(1 - random.nextDouble()) / w.rate();
                }
                Duration lifetime = w.lifetime() == null ? null : w.lifetime().draw(random);
                plans.add(new PodPlan(w.name() + "-" + i, w, Duration.ofNanos((long) (t * 1e9)), lifetime));
            }
        }
        plans.sort(Comparator.comparing(PodPlan::arrival).thenComparing(PodPlan::name));
        return plans;
    }
}
