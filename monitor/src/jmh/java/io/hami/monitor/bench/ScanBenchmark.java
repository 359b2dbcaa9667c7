package io.hami.monitor.bench;

import io.hami.monitor.priority.ControlWrite;
import io.hami.monitor.priority.PriorityFeedback;
import io.hami.monitor.scan.RegionScanner;
import io.hami.monitor.scan.Scan;
import io.hami.nativebind.hamicore.MappedRegion;
import io.hami.nativebind.hamicore.SharedRegionFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One scan of a node with {@code containers} containers (goal: under 5 ms for 500, a tenth of upstream's 5 s
 * period spent on nothing else being far below that), on regions written by hardware-mocks' {@code hami-workload}
 * (format 1, two devices, four processes):
 *
 * <ul>
 *   <li>{@code scan}: a scan of a node scanned before, the monitor's steady state: list the containers folder,
 *       check each folder's and region file's attributes (the folder listings and the mappings are kept), copy
 *       every field of every region;
 *   <li>{@code scanAndDecide}: the same and the priority feedback decided;
 *   <li>{@code firstScan}: a fresh scanner's first scan, closed after: every folder listed, every file mapped and
 *       unmapped (what each scan cost before the mappings were kept);
 *   <li>{@code copyOnly}: the field copy of every region from mappings already open, without the file system.
 * </ul>
 *
 * <pre>scripts/bench.sh monitor ScanBenchmark -wi 3 -i 5 -f 1 -w 1s -r 1s</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ScanBenchmark {
    @Param("500")
    int containers;

    Path hook;
    RegionScanner scanner;
    List<MappedRegion> mapped;

    @Setup(Level.Trial)
    public void writeRegions() throws IOException, InterruptedException {
        hook = Files.createTempDirectory("hami-monitor-bench");
        Path first = hook.resolve("template.cache");
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("hami.mocks.dir"), "hamicore/hami-workload")
                                .toString(),
                        "--region",
                        first.toString(),
                        "--once",
                        "--format-version",
                        "1",
                        "--device",
                        "GPU-00000000-0000-0000-0000-000000000000:4096:50",
                        "--device",
                        "GPU-00000000-0000-0000-0000-000000000001:4096:50",
                        "--priority",
                        "1",
                        "--processes",
                        "4",
                        "--used-mib",
                        "100",
                        "--sm-util",
                        "20")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("hami-workload failed: " + out);
        }
        for (int i = 0; i < containers; i++) {
            Path dir = hook.resolve("containers/" + UUID.randomUUID() + "_main");
            Files.createDirectories(dir);
            Files.copy(first, dir.resolve(UUID.randomUUID() + ".cache"));
        }
        scanner = new RegionScanner(hook);
        int read = scanner.scan().regions().size();
        if (read != containers) {
            throw new IllegalStateException("read " + read + " of " + containers + " regions: "
                    + scanner.scan().skipped().values().stream().findFirst().orElse(""));
        }
        mapRegions();
    }

    private void mapRegions() throws IOException {
        try (Stream<Path> files = Files.walk(hook.resolve("containers"))) {
            mapped = files.filter(f -> f.toString().endsWith(".cache"))
                    .map(f -> (MappedRegion) SharedRegionFiles.open(f))
                    .toList();
        }
    }

    @TearDown(Level.Trial)
    public void remove() throws IOException {
        mapped.forEach(MappedRegion::close);
        scanner.close();
        try (Stream<Path> walk = Files.walk(hook)) {
            for (Path f : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    @Benchmark
    public Scan scan() {
        return scanner.scan();
    }

    @Benchmark
    public List<ControlWrite> scanAndDecide() {
        return PriorityFeedback.decide(scanner.scan().regions());
    }

    @Benchmark
    public Scan firstScan() {
        try (var fresh = new RegionScanner(hook)) {
            return fresh.scan();
        }
    }

    @Benchmark
    public void copyOnly(Blackhole sink) {
        for (MappedRegion region : mapped) {
            sink.consume(region.read());
        }
    }
}
