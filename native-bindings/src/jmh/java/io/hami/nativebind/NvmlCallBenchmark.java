package io.hami.nativebind;

import com.sun.jna.Function;
import com.sun.jna.Memory;
import com.sun.jna.Pointer;
import io.hami.nativebind.nvml.Nvml;
import io.hami.nativebind.nvml.raw.nvmlMemory_t;
import io.hami.nativebind.nvml.raw.nvml_h;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * One nvmlDeviceGetMemoryInfo call into the NVML mock through the FFM binding and through JNA, plus the
 * safe wrapper (handle lookup, confined arena, v2 struct, record) for scale. Run with scripts/bench.sh native-bindings NvmlCallBenchmark.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class NvmlCallBenchmark {

    private static final String LIB = "libnvidia-ml.so.1";

    private Arena arena;
    private nvml_h ffm;
    private MemorySegment device;
    private MemorySegment memory;
    private Function jnaGetMemoryInfo;
    private Pointer jnaDevice;
    private Memory jnaMemory;
    private Nvml wrapper;

    @Setup
    public void setUp() throws IOException {
        Path dir = Files.createTempDirectory("hami-bench");
        Path library = MockLibrary.install(
                        dir,
                        "nvidia",
                        "{\"devices\": [{\"uuid\": \"GPU-bench\", \"name\": \"bench\", \"memoryMiB\": 40960}]}",
                        LIB)
                .path(LIB);
        arena = Arena.ofShared();
        ffm = new nvml_h(NativeLibrary.open("NVML", library));
        check(ffm.nvmlInit_v2());
        MemorySegment out = arena.allocate(ValueLayout.ADDRESS);
        check(ffm.nvmlDeviceGetHandleByIndex_v2(0, out));
        device = out.get(ValueLayout.ADDRESS, 0);
        memory = nvmlMemory_t.allocate(arena);

        // JNA opens the same file, so dlopen returns the same loaded copy and the handle is valid for both
        jnaGetMemoryInfo =
                com.sun.jna.NativeLibrary.getInstance(library.toString()).getFunction("nvmlDeviceGetMemoryInfo");
        jnaDevice = new Pointer(device.address());
        jnaMemory = new Memory(nvmlMemory_t.layout().byteSize());
        wrapper = Nvml.open(library);
    }

    @TearDown
    public void tearDown() {
        wrapper.close();
        check(ffm.nvmlShutdown());
        arena.close();
    }

    @Benchmark
    public int ffm() {
        return ffm.nvmlDeviceGetMemoryInfo(device, memory);
    }

    @Benchmark
    public int jna() {
        return jnaGetMemoryInfo.invokeInt(new Object[] {jnaDevice, jnaMemory});
    }

    @Benchmark
    public long wrapper() {
        return wrapper.memory(0).usedBytes();
    }

    private static void check(int rc) {
        if (rc != 0) {
            throw new IllegalStateException("NVML mock returned " + rc);
        }
    }

    /** Runs the benchmark with JMH's command-line options and prints JNA time divided by FFM time. */
    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        Collection<RunResult> results = new Runner(new OptionsBuilder()
                        .parent(new CommandLineOptions(args))
                        .include(NvmlCallBenchmark.class.getName())
                        .build())
                .run();
        double ffm = score(results, "ffm");
        double jna = score(results, "jna");
        System.out.printf(
                "%nnvmlDeviceGetMemoryInfo into the mock: FFM %.1f ns, JNA %.1f ns, JNA/FFM = %.1fx%n",
                ffm, jna, jna / ffm);
    }

    private static double score(Collection<RunResult> results, String benchmark) {
        return results.stream()
                .filter(r -> r.getParams().getBenchmark().endsWith("." + benchmark))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no result for " + benchmark))
                .getPrimaryResult()
                .getScore();
    }
}
