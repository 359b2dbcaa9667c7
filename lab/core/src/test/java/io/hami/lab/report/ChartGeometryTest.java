package io.hami.lab.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hami.lab.usage.ContainerUsage;
import io.hami.lab.usage.UsageSeries;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container memory chart as a browser lays it out: headless Chromium renders it, a script in the page writes
 * every text's bounding box (SVG {@code getBBox}, in the chart's own units) into the page, and the test reads them
 * back from the DOM Chromium dumps. No two texts may overlap and none may leave the chart. Runs only where Chromium
 * is installed (Debian: {@code apt-get install chromium}); skipped elsewhere. Also leaves a screenshot,
 * {@code target/chart-geometry/usage.png}, to look at.
 */
class ChartGeometryTest {
    private static final Pattern BOX = Pattern.compile("([\\d.]+) ([\\d.]+) ([\\d.]+) ([\\d.]+) (.*)");

    record Box(double x, double y, double w, double h, String text) {
        boolean overlaps(Box o) {
            return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h;
        }
    }

    @TempDir
    Path dir;

    @Test
    void theContainerChartsTextsNeitherOverlapNorLeaveTheChart() throws Exception {
        Path chromium = chromium();
        assumeTrue(chromium != null, "Chromium is not installed");
        // A long pod name, a long profile and a run of two minutes: the widest labels the chart gets.
        String svg = Charts.usage(new UsageSeries(
                new ContainerUsage(
                        "team-inference/infer-pct-000123", "server-main", 3, "GPU-0fc3eda5-e98b", 3L << 30, 4L << 30),
                "ramp, memory 80%, sm 30, over 15s, then steady until the pod ends",
                false,
                List.of(
                        new UsageSeries.Point(Duration.ofSeconds(1), 1L << 30),
                        new UsageSeries.Point(Duration.ofSeconds(118), 3L << 30))));
        Path page = Files.writeString(dir.resolve("chart.html"), """
                <!doctype html><html><body style="margin:0">%s
                <pre id="boxes"></pre>
                <script>
                  const svg = document.querySelector('svg');
                  const vb = svg.viewBox.baseVal;
                  const lines = [vb.width + ' ' + vb.height + ' 0 0 viewBox'];
                  for (const t of svg.querySelectorAll('text')) {
                    const b = t.getBBox();
                    lines.push(b.x + ' ' + b.y + ' ' + b.width + ' ' + b.height + ' ' + t.textContent);
                  }
                  document.getElementById('boxes').textContent = lines.join('\\n');
                </script></body></html>
                """.formatted(svg));

        String dom = run(chromium, "--dump-dom", page.toUri().toString());
        Path png = Path.of("target", "chart-geometry", "usage.png").toAbsolutePath();
        Files.createDirectories(png.getParent());
        run(
                chromium,
                "--screenshot=" + png,
                "--window-size=400,220",
                page.toUri().toString());

        String pre = dom.substring(dom.indexOf("<pre id=\"boxes\">") + 16, dom.indexOf("</pre>"));
        var boxes = new ArrayList<Box>();
        for (String line : pre.strip().split("\n")) {
            var m = BOX.matcher(line.strip());
            assertThat(m.matches()).as(line).isTrue();
            boxes.add(new Box(
                    Double.parseDouble(m.group(1)),
                    Double.parseDouble(m.group(2)),
                    Double.parseDouble(m.group(3)),
                    Double.parseDouble(m.group(4)),
                    m.group(5)));
        }
        Box viewBox = boxes.removeFirst();
        double width = viewBox.x(), height = viewBox.y();
        assertThat(boxes).extracting(Box::text).contains("MiB", "118s");
        for (Box b : boxes) {
            assertThat(b.x() >= 0 && b.y() >= 0 && b.x() + b.w() <= width && b.y() + b.h() <= height)
                    .as("\"%s\" %s inside the chart %sx%s", b.text(), b, width, height)
                    .isTrue();
        }
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                assertThat(boxes.get(i).overlaps(boxes.get(j)))
                        .as(
                                "\"%s\" overlaps \"%s\"",
                                boxes.get(i).text(), boxes.get(j).text())
                        .isFalse();
            }
        }
        assertThat(png).isNotEmptyFile();
    }

    private static Path chromium() {
        for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
            for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    private String run(Path chromium, String... args) throws Exception {
        var command = new ArrayList<>(List.of(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--user-data-dir=" + dir.resolve("profile")));
        command.addAll(List.of(args));
        Path out = dir.resolve("chromium.out");
        var process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(dir.resolve("chromium.err").toFile())
                .start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS))
                .as("chromium finished")
                .isTrue();
        assertThat(process.exitValue())
                .as(Files.readString(dir.resolve("chromium.err")))
                .isZero();
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
