package io.hami.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.lab.cluster.ControlPlaneKind;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.observe.PodState;
import io.hami.lab.report.RunReport;
import io.hami.lab.scenario.ScenarioException;
import io.hami.lab.scenario.ScenarioLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default scenario on the real control plane ({@code --control-plane kubernetes}), with a tenth of its pods (at
 * least one per workload; kube-scheduler retries a bind refused for node-lock contention only after its pod backoff of
 * 1-10 s, so a quarter of the pods, as {@link DefaultScenarioTest} runs them, takes minutes here):
 * kube-apiserver calls the webhook, kube-scheduler with deploy/'s configuration calls the extender over TLS, and every
 * invariant holds as on the embedded API server. Needs the binaries of {@code scripts/control-plane.sh}.
 */
class KubernetesControlPlaneScenarioTest {
    private static final String CONTROL_PLANE = "kube-apiserver + kube-scheduler v1.";

    @Test
    void aTenthOfTheDefaultWorkloadKeepsEveryInvariantOnKubeApiserverAndKubeScheduler(@TempDir Path reports)
            throws Exception {
        var run = ScenarioRuns.run(ScenarioLoader.resolve("default").scaled(0.1), reports, ControlPlaneKind.KUBERNETES);
        RunReport r = run.result().report();

        ScenarioRuns.assertInvariantsHold(run.result());
        assertThat(r.run().controlPlane()).startsWith(CONTROL_PLANE);
        assertThat(run.console())
                .contains("control plane: " + CONTROL_PLANE, "all invariants hold", "control plane logs: ");
        assertThat(Files.readString(run.result().html()))
                .contains("control plane: " + CONTROL_PLANE, "inside the extender");
        assertThat(r.pods().notCreated())
                .as("pods the API server did not take, or took past the webhook")
                .isEmpty();
        assertThat(r.pods().rejected())
                .as("the webhook's denial, returned by the API server")
                .hasSize(1)
                .allSatisfy((pod, message) ->
                        assertThat(message).startsWith("pod sets annotation hami.io/vgpu-devices-allocated"));
        assertThat(r.count(PodState.SUCCEEDED))
                .as("pods kube-scheduler bound that finished")
                .isPositive();
        assertThat(r.pods().unschedulable())
                .as("kube-scheduler's own message")
                .isNotEmpty()
                .allSatisfy((message, n) -> assertThat(message).startsWith("0/8 nodes are available: "));
        assertThat(r.binds().latencies()).containsKeys(Latencies.FILTER, Latencies.BIND, Latencies.ALLOCATE);
        assertThat(r.binds().podsPerSecond()).isPositive();
        try (Stream<Path> dirs = Files.list(reports)) {
            Path logs = dirs.filter(d -> d.getFileName().toString().endsWith("-control-plane"))
                    .findFirst()
                    .orElseThrow()
                    .resolve("logs");
            assertThat(logs.resolve("kube-apiserver.log")).isNotEmptyFile();
            assertThat(logs.resolve("kube-scheduler-1.log")).isNotEmptyFile();
        }
    }

    @Test
    void faultsThatNeedTheEmbeddedApiServerAreRefusedBeforeAnythingStarts(@TempDir Path reports) throws Exception {
        var faults = ScenarioLoader.resolve("faults");

        assertThat(Lab.unsupported(faults, ControlPlaneKind.EMBEDDED)).isEmpty();
        assertThat(Lab.unsupported(faults, ControlPlaneKind.KUBERNETES))
                .anySatisfy(p -> assertThat(p)
                        .startsWith("fault api-write-errors at 18s needs the embedded API server")
                        .contains("--control-plane kubernetes"));
        assertThatThrownBy(() -> ScenarioRuns.run(faults, reports, ControlPlaneKind.KUBERNETES))
                .isInstanceOf(ScenarioException.class)
                .hasMessageContaining("api-write-errors");
    }
}
