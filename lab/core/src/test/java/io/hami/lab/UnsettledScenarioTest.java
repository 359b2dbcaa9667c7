package io.hami.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.check.Invariant;
import io.hami.lab.scenario.ScenarioLoader;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run that reaches its timeout with its workload still moving fails, whatever its other invariants say. */
class UnsettledScenarioTest {
    private static final String SCENARIO = """
            name: unsettled
            description: One pod that runs for a minute, in a run with a timeout of two seconds.
            seed: 1
            timeout: 2s
            settle: 1s
            nodes:
              - name: gpu
                devices:
                  - {vendor: nvidia, model: NVIDIA A100-SXM4-40GB, count: 1, memory: 40960}
            workloads:
              - name: long
                count: 1
                rate: 1
                lifetime: 60s
                containers:
                  - name: main
                    resources: {nvidia.com/gpu: 1, nvidia.com/gpumem: 1000}
            """;

    @Test
    void aRunStoppedByItsTimeoutDoesNotPassAndSaysWhatWasLeft(@TempDir Path reports) throws Exception {
        var run = ScenarioRuns.run(ScenarioLoader.parse(SCENARIO, "test"), reports);

        assertThat(run.result().report().invariantsHold()).isFalse();
        Invariant settled = run.result().report().invariants().stream()
                .filter(i -> i.name().equals("settled"))
                .findFirst()
                .orElseThrow();
        assertThat(settled.violations()).singleElement().asString().startsWith("the timeout of 2s was reached with ");
        assertThat(run.console())
                .contains("lab: timeout of 2s reached; stopping with ")
                .contains("FAIL settled")
                .contains("INVARIANTS VIOLATED")
                .doesNotContain("all invariants hold");
    }
}
