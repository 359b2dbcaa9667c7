package io.hami.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.check.Invariant;
import io.hami.lab.report.RunReport;
import io.hami.lab.scenario.Scenario;
import io.hami.lab.scenario.ScenarioLoader;
import io.hami.lab.scenario.SchedulerSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduling scenario end to end: gangs, preemption and topology-aware placement keep their invariants, and the
 * pods that waited for devices were measured. {@code -Dlab.requeue.compare=true} also runs it without the scheduler's
 * requeue on release, for the figures before issue 14's point 4.
 */
class SchedulingScenarioTest {

    @Test
    void gangsPreemptionAndTopologyKeepTheirInvariants(@TempDir Path reports) throws Exception {
        RunReport r = runWithRequeue(true, reports);

        for (Invariant i : r.invariants()) {
            assertThat(i.violations())
                    .as("invariant " + i.name() + ": " + i.statement())
                    .isEmpty();
        }
        assertThat(invariant(r, "gangs").checked()).as("gang members").isEqualTo(4);
        assertThat(invariant(r, "preemption").checked()).as("preemptions").isEqualTo(2);
        assertThat(invariant(r, "topology").checked())
                .as("two-GPU topology-aware containers")
                .isEqualTo(2);
        assertThat(r.binds().releaseWaits().pods())
                .as("pods that waited for a release")
                .isPositive();
    }

    @Test
    @EnabledIfSystemProperty(named = "lab.requeue.compare", matches = "true")
    void withoutRequeueOnRelease(@TempDir Path reports) throws Exception {
        RunReport r = runWithRequeue(false, reports);
        assertThat(r.binds().releaseWaits().pods()).isPositive();
    }

    /** The default scenario's figures, a quarter of its pods, with and without the requeue (no assertion). */
    @Test
    @EnabledIfSystemProperty(named = "lab.requeue.compare", matches = "true")
    void defaultScenarioWithAndWithoutRequeueOnRelease(@TempDir Path reports) throws Exception {
        for (boolean requeue : new boolean[] {true, false}) {
            Scenario s = withRequeue(ScenarioLoader.resolve("default").scaled(0.25), requeue);
            var run = ScenarioRuns.run(s, reports);
            System.out.println("default, requeueOnRelease=" + requeue + ": waited after a release: "
                    + run.result().report().binds().releaseWaits().describe());
        }
    }

    private static RunReport runWithRequeue(boolean requeue, Path reports) throws Exception {
        var run = ScenarioRuns.run(withRequeue(ScenarioLoader.resolve("scheduling"), requeue), reports);
        System.out.println("requeueOnRelease=" + requeue + ": waited after a release: "
                + run.result().report().binds().releaseWaits().describe());
        return run.result().report();
    }

    private static Scenario withRequeue(Scenario s, boolean requeue) {
        SchedulerSpec spec = s.scheduler();
        var scheduler = new SchedulerSpec(
                spec.replicas(),
                spec.nodePolicy(),
                spec.gpuPolicy(),
                spec.lockTimeout(),
                spec.handshakePeriod(),
                spec.bindParallelism(),
                requeue,
                spec.gangLockWait());
        return new Scenario(
                s.name(),
                s.description(),
                s.seed(),
                s.timeout(),
                s.settle(),
                scheduler,
                s.nodes(),
                s.workloads(),
                s.faults(),
                s.priorityClasses());
    }

    private static Invariant invariant(RunReport r, String name) {
        return r.invariants().stream()
                .filter(i -> i.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no invariant " + name + " in " + r.invariants()));
    }
}
