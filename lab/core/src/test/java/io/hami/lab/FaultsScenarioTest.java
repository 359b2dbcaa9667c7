package io.hami.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.check.Invariant;
import io.hami.lab.fault.FaultEvent;
import io.hami.lab.observe.PodState;
import io.hami.lab.report.RunReport;
import io.hami.lab.scenario.ScenarioLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The faults scenario end to end: plugin and kubelet restarts, devices turning unhealthy and back, API write errors
 * a scheduler failover, a pod that grants itself a GPU and a lock holder its kubelet rejects, all while pods arrive;
 * every invariant holds (neither untrusted pod gets a device, the rejected holder's node moves on within seconds) and
 * every pod reaches an end.
 */
class FaultsScenarioTest {

    @Test
    void everyFaultIsSurvivedWithEveryInvariantKept(@TempDir Path reports) throws Exception {
        var run = ScenarioRuns.run(ScenarioLoader.resolve("faults"), reports);
        RunReport r = run.result().report();

        ScenarioRuns.assertInvariantsHold(run.result());
        assertThat(r.chaos().faults()).noneMatch(FaultEvent::failed);
        assertThat(r.chaos().faults())
                .extracting(FaultEvent::what)
                .anySatisfy(w -> assertThat(w).contains("plugin nvidia started again"))
                .anySatisfy(w -> assertThat(w).contains("kubelet started again"))
                .anySatisfy(w -> assertThat(w).contains("healthy again"))
                .anySatisfy(w -> assertThat(w).startsWith("stopped the leading scheduler"))
                .anySatisfy(w -> assertThat(w).startsWith("pod self-grant-8s ended Failed"))
                .anySatisfy(w -> assertThat(w).contains("a100-1: the kubelet rejected pod"))
                .anySatisfy(w -> assertThat(w)
                        .containsPattern("a100-1: lock of rejected pod \\S+ gone \\d+ ms after the rejection"));
        assertThat(r.invariants()).extracting(Invariant::name).contains("trust");
        assertThat(r.chaos().apiErrors()).as("API writes failed on purpose").isPositive();
        assertThat(r.count(PodState.PENDING) + r.count(PodState.ALLOCATING) + r.count(PodState.UNSCHEDULABLE))
                .isZero();
        assertThat(r.count(PodState.SUCCEEDED)).isGreaterThan(r.pods().planned() / 2);
    }
}
