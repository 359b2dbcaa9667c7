package io.hami.nativebind.hamicore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Regions written by the C writer (as HAMi-core writes them), read back by the FFM reader, for both versions. */
class SharedRegionFilesTest {
    private static final long MIB = 1024 * 1024;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void readsBackEveryFieldTheWriterWrote(int version) {
        Path file = dir.resolve("region.cache");
        long before = System.currentTimeMillis() / 1000;
        HamiWorkload.ok(
                "--region",
                file.toString(),
                "--format-version",
                Integer.toString(version),
                "--device",
                "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000:1024:30",
                "--device",
                "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000001:2048:0",
                "--priority",
                "0",
                "--processes",
                "3",
                "--used-mib",
                "100",
                "--sm-util",
                "25",
                "--once");
        long after = System.currentTimeMillis() / 1000;

        SharedRegion region = read(file);

        assertThat(region.majorVersion()).isEqualTo(version);
        assertThat(region.minorVersion()).isEqualTo(version == 1 ? 2 : 0);
        assertThat(region.devices())
                .containsExactly(
                        new DeviceShare("GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000", 1024 * MIB, 30),
                        new DeviceShare("GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000001", 2048 * MIB, 100));
        assertThat(region.processes()).extracting(ProcessUsage::pid).containsExactly(1, 2, 3);
        assertThat(region.processes()).allSatisfy(p -> {
            assertThat(p.hostPid()).isPositive();
            // the writer's split: a context of 1/8, modules of 1/16, data for the rest
            assertThat(p.memory())
                    .containsOnly(new DeviceMemory(
                            100 * MIB / 8, 100 * MIB / 16, 100 * MIB - 100 * MIB / 8 - 100 * MIB / 16, 0, 100 * MIB))
                    .hasSize(2);
            assertThat(p.smUtilization()).containsExactly(25L, 25L);
        });
        assertThat(region.control().priority()).isZero();
        assertThat(region.control().recentKernel()).isEqualTo(2);
        assertThat(region.control().utilizationSwitch()).isEqualTo(1);
        if (version == 1) {
            assertThat(region.control().lastKernelTimeSeconds()).isBetween(before, after);
        } else {
            assertThat(region.control().lastKernelTimeSeconds()).isZero();
        }
        assertThat(dumpOf(region)).isEqualTo(HamiWorkload.dump(file));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void controlWrittenFromJavaIsWhatTheCReaderSees(int version) throws IOException {
        Path file = dir.resolve("region.cache");
        HamiWorkload.ok(
                "--region",
                file.toString(),
                "--format-version",
                Integer.toString(version),
                "--device",
                "GPU-a:512:50",
                "--priority",
                "1",
                "--used-mib",
                "64",
                "--once");

        SharedRegionFiles.writeControl(file, -1, 0);

        assertThat(HamiWorkload.dump(file)).contains("\nrecent_kernel -1\n", "\nutilization_switch 0\n");
        SharedRegion region = read(file);
        assertThat(region.control().recentKernel()).isEqualTo(-1);
        assertThat(region.control().utilizationSwitch()).isZero();
        assertThat(region.control().priority()).isEqualTo(1);
        assertThat(dumpOf(region)).isEqualTo(HamiWorkload.dump(file));
    }

    @ParameterizedTest
    @ValueSource(strings = {"steady", "ramp", "burst"})
    void aProfileKeepsRewritingTheRegionAndEndsAtItsLastShape(String profile) {
        Path file = dir.resolve("region.cache");
        HamiWorkload.ok(
                "--region", file.toString(),
                "--format-version", "1",
                "--device", "GPU-a:4096:0",
                "--priority", "1",
                "--used-mib", "800",
                "--sm-util", "60",
                "--profile", profile,
                "--duration-s", "1",
                "--period-ms", "100");

        ProcessUsage process = read(file).processes().getFirst();
        // ramp reaches full use at the end; burst's ticks alternate busy/idle and the last of 11 is busy
        assertThat(process.memory().getFirst().totalBytes()).isEqualTo(800 * MIB);
        assertThat(process.smUtilization()).containsExactly(60L);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "--format-version 2",
                "--device nocolons",
                "--device GPU-a:12:101",
                "--priority 3",
                "--profile wave",
                "--used-mib -5",
                "--bogus 1"
            })
    void badArgumentsExitWithTwoAndOneLine(String bad) {
        List<String> args = new ArrayList<>(List.of(
                "--region",
                dir.resolve("r.cache").toString(),
                "--format-version",
                "1",
                "--device",
                "GPU-a:1:1",
                "--priority",
                "0",
                "--once"));
        args.addAll(List.of(bad.split(" ")));

        HamiWorkload.Result result = HamiWorkload.run(args.toArray(String[]::new));

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output().strip()).startsWith("hami-workload: ").doesNotContain("\n");
    }

    static SharedRegion read(Path file) {
        RegionRead read = SharedRegionFiles.read(file);
        assertThat(read).isInstanceOf(RegionRead.Read.class);
        return ((RegionRead.Read) read).region();
    }

    /** The Java reading in hami-workload's --dump format, to compare with the C reader field by field. */
    static String dumpOf(SharedRegion region) {
        StringBuilder out = new StringBuilder();
        out.append("version ")
                .append(region.majorVersion())
                .append('.')
                .append(region.minorVersion())
                .append('\n');
        out.append("device_num ").append(region.devices().size()).append('\n');
        for (int d = 0; d < region.devices().size(); d++) {
            DeviceShare share = region.devices().get(d);
            out.append("device %d %s %d %d%n"
                    .formatted(d, share.uuid(), share.memoryLimitBytes(), share.smLimitPercent()));
        }
        out.append("proc_num ").append(region.processes().size()).append('\n');
        for (int p = 0; p < region.processes().size(); p++) {
            ProcessUsage process = region.processes().get(p);
            out.append("proc %d %d %d%n".formatted(p, process.pid(), process.hostPid()));
            for (int d = 0; d < process.memory().size(); d++) {
                DeviceMemory m = process.memory().get(d);
                out.append("memory %d %d %d %d %d %d %d %d%n"
                        .formatted(
                                p,
                                d,
                                m.contextBytes(),
                                m.moduleBytes(),
                                m.dataBytes(),
                                m.bufferBytes(),
                                m.totalBytes(),
                                process.smUtilization().get(d)));
            }
        }
        Control control = region.control();
        out.append("priority ").append(control.priority()).append('\n');
        out.append("recent_kernel ").append(control.recentKernel()).append('\n');
        out.append("utilization_switch ").append(control.utilizationSwitch()).append('\n');
        out.append("last_kernel_time ").append(control.lastKernelTimeSeconds()).append('\n');
        return out.toString();
    }
}
