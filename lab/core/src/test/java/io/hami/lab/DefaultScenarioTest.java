package io.hami.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.observe.PodState;
import io.hami.lab.report.DeviceRow;
import io.hami.lab.report.RunReport;
import io.hami.lab.scenario.ScenarioLoader;
import io.hami.lab.scenario.Vendor;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The default scenario end to end, with a quarter of its pods so that it fits the CI's time (the full scenario is
 * what {@code ./hami lab} runs): every invariant holds, and the run did what the scenario is for.
 */
class DefaultScenarioTest {

    @Test
    void aQuarterOfTheDefaultWorkloadKeepsEveryInvariant(@TempDir Path reports) throws Exception {
        var run = ScenarioRuns.run(ScenarioLoader.resolve("default").scaled(0.25), reports);
        RunReport r = run.result().report();

        ScenarioRuns.assertInvariantsHold(run.result());
        for (Vendor v : Vendor.values()) {
            assertThat(r.devices().stream()
                            .filter(d -> d.device().vendor() == v)
                            .mapToLong(DeviceRow::peakMemory)
                            .sum())
                    .as("some pod used %s devices", v)
                    .isPositive();
        }
        assertThat(r.count(PodState.SUCCEEDED))
                .as("pods that finished and freed their devices")
                .isPositive();
        assertThat(r.count(PodState.UNSCHEDULABLE))
                .as("the pods too big for any node")
                .isEqualTo(2);
        assertThat(r.pods().unschedulable().keySet())
                .allSatisfy(m -> assertThat(m).startsWith("0/8 nodes are available: "));
        assertThat(r.pods().rejected()).hasSize(1);
        assertThat(r.invariants().stream()
                        .filter(i -> i.name().equals("grants"))
                        .findFirst()
                        .orElseThrow()
                        .checked())
                .as("containers whose grants were checked")
                .isGreaterThan(50);
        var usage = r.invariants().stream()
                .filter(i -> i.name().equals("usage"))
                .findFirst()
                .orElseThrow();
        assertThat(usage.checked())
                .as("GPU figures of containers with a usage profile that the monitors had to match")
                .isGreaterThan(5);
        assertThat(r.usage().series())
                .as("one over its limit by design (a100-only's 9000 MiB of 8000)")
                .anySatisfy(s -> {
                    assertThat(s.overLimit()).isTrue();
                    assertThat(s.peakBytes()).isGreaterThan(s.usage().limitBytes());
                })
                .anySatisfy(s -> assertThat(s.peakBytes())
                        .isPositive()
                        .isLessThan(s.usage().limitBytes()));
        assertThat(r.usage().monitors()).as("one per node with NVIDIA devices").isEqualTo(5);
        assertThat(r.usage().scrapeExcerpt())
                .as("a real scrape over HTTP")
                .anyMatch(l -> l.startsWith("hami_vgpu_memory_used_bytes{") && l.contains("zone=\"vGPU\""));
        assertThat(run.console()).contains("usage (node monitors): ");
        assertThat(run.console())
                .contains(
                        "cluster ready in",
                        "== default: summary ==",
                        "all invariants hold",
                        "./hami inspect nodes --kubeconfig " + reports.resolve(Lab.KUBECONFIG));
        String server = run.console().replaceAll("(?s).*cluster ready in [^:]*: API server (\\S+),.*", "$1");
        assertThat(Files.readString(reports.resolve(Lab.KUBECONFIG))).contains("server: " + server);
        assertThat(Files.readString(run.result().html()))
                .contains("<svg", "Pods over time", "Allocation per node", "Container usage");
    }
}
