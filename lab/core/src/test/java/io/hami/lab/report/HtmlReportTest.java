package io.hami.lab.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.lab.check.DeviceAccounting;
import io.hami.lab.check.DeviceCapacity;
import io.hami.lab.check.Invariant;
import io.hami.lab.fault.FaultEvent;
import io.hami.lab.metrics.Latencies;
import io.hami.lab.observe.PodState;
import io.hami.lab.observe.Sample;
import io.hami.lab.scenario.Vendor;
import io.hami.lab.usage.ContainerUsage;
import io.hami.lab.usage.UsageSeries;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {

    private static RunReport report(List<Invariant> invariants) {
        var latencies = new Latencies();
        latencies.record(Latencies.FILTER, Duration.ofMillis(3));
        latencies.record(Latencies.BIND, Duration.ofMillis(40));
        var device = new DeviceCapacity("gpu-0", Vendor.NVIDIA, 0, "GPU-1", "A100 <40GB>", 10, 40960, 100);
        var key = new DeviceAccounting.DeviceKey("gpu-0", "GPU-1");
        var samples = List.of(
                new Sample(
                        Duration.ofSeconds(1),
                        Map.of(PodState.RUNNING, 2),
                        Map.of(key, new DeviceAccounting.Usage(2, 8000, 40))),
                new Sample(Duration.ofSeconds(2), Map.of(PodState.SUCCEEDED, 2), Map.of()));
        return new RunReport(
                new RunReport.Run(
                        "demo",
                        "a demo & more",
                        3,
                        Instant.parse("2026-01-02T03:04:05Z"),
                        Duration.ofSeconds(2),
                        Duration.ofSeconds(9),
                        Map.of("with plugins", 1, "synthetic", 0),
                        io.hami.lab.cluster.ControlPlaneKind.EMBEDDED_DESCRIPTION,
                        RunReport.SIMULATED_LATENCIES),
                new RunReport.Pods(
                        3,
                        Map.of(PodState.SUCCEEDED, 2),
                        Map.of("bad-0", "pod sets annotation <x>"),
                        Map.of(),
                        Map.of("0/1 nodes are available: 1 NodeInsufficientDevice.", 1),
                        Map.of()),
                new RunReport.Binds(
                        latencies.stats(),
                        1.5,
                        1,
                        4,
                        Map.of("bind: pod <pod> changed while it was bound to <node>", 1),
                        null),
                List.of(new DeviceRow(device, 0, 0, 0, 8000, 40)),
                new RunReport.Chaos(
                        2, List.of(new FaultEvent(Duration.ofSeconds(1), "restart the nvidia plugin on gpu-0", false))),
                samples,
                invariants,
                new RunReport.Usage(
                        1,
                        List.of(new UsageSeries(
                                new ContainerUsage("default/infer-0", "server <a>", 0, "GPU-1", 3L << 30, 4L << 30),
                                "ramp, memory 75%, sm 40",
                                false,
                                List.of(
                                        new UsageSeries.Point(Duration.ofSeconds(1), 1L << 30),
                                        new UsageSeries.Point(Duration.ofSeconds(2), 3L << 30)))),
                        List.of("hami_vgpu_memory_used_bytes{container=\"server <a>\"} 3.221225472E9")));
    }

    @Test
    void writesASelfContainedPageWithItsChartsTablesAndEscapedText(@TempDir Path dir) throws Exception {
        Path file = HtmlReport.write(report(List.of(new Invariant("locks", "every lock released", 1, List.of()))), dir);
        String html = Files.readString(file);

        assertThat(file.getFileName().toString()).isEqualTo("demo-20260102-030405.html");
        assertThat(html)
                .contains(
                        "All 1 invariants hold",
                        "Pods over time",
                        "<tr><td>filter</td><td class=\"num\">1</td><td class=\"num\">3.00ms</td>",
                        "<tr><td>bind</td><td class=\"num\">1</td><td class=\"num\">40.0ms</td>",
                        "Allocation per node",
                        "<td>gpu-0</td><td>nvidia #0</td><td>A100 &lt;40GB&gt;</td><td class=\"num\">0/40960 0%</td>"
                                + "<td class=\"num\">20%</td><td class=\"num\">0/100</td><td class=\"num\">40</td>"
                                + "<td class=\"num\">0/10</td>",
                        "restart the nvidia plugin on gpu-0",
                        "0/1 nodes are available: 1 NodeInsufficientDevice.",
                        "Why binds and filters failed",
                        "Container usage",
                        "default/infer-0 · server &lt;a&gt; · GPU 0",
                        "ramp, memory 75%, sm 40",
                        "hami_vgpu_memory_used_bytes{container=&quot;server &lt;a&gt;&quot;} 3.221225472E9",
                        "bind: pod &lt;pod&gt; changed while it was bound to &lt;node&gt;");
        assertThat(html)
                .contains("a demo &amp; more", "A100 &lt;40GB&gt;", "pod sets annotation &lt;x&gt;")
                .doesNotContain("A100 <40GB>");
        assertThat(html).as("nothing loaded from elsewhere").doesNotContain("<script", "src=", "href=", "<link");
        assertThat(html.split("<svg", -1))
                .as("pods over time and one container's memory")
                .hasSize(3);
    }

    @Test
    void aViolatedInvariantIsTheVerdictAndListsItsViolations(@TempDir Path dir) throws Exception {
        String html = Files.readString(HtmlReport.write(
                report(List.of(
                        new Invariant("locks", "every lock released", 1, List.of("gpu-0 is still locked")),
                        new Invariant("stuck", "none stuck", 3, List.of()))),
                dir));

        assertThat(html).contains("1 of 2 invariants violated", "gpu-0 is still locked", "1 violation(s)");
    }
}
