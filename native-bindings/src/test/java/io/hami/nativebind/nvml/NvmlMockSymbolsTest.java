package io.hami.nativebind.nvml;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.nativebind.MockLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The NVML mock exports what real clients bind: every function upstream HAMi's NVIDIA device plugin calls (the
 * committed list upstream-plugin-nvml-symbols.txt, with the call path of each) and every function the project's
 * header hami_nvml.h declares. Checked on the ELF dynamic symbol table, as the dynamic linker sees it.
 */
class NvmlMockSymbolsTest {

    /** The header the mock is compiled from (tests run in the module folder). */
    static final Path HEADER = Path.of("src/main/c/include/hami_nvml.h");

    @ParameterizedTest
    @ValueSource(strings = {"nvidia", "legacy/nvidia"})
    void exportsEveryFunctionUpstreamsPluginCalls(String folder) throws Exception {
        List<String> required = upstreamPluginSymbols();
        // guards against an empty or mis-parsed list passing vacuously
        assertThat(required).hasSizeGreaterThan(30).contains("nvmlDeviceGetHandleByUUID", "nvmlInit_v2");
        Set<String> exported = exported(MockLibrary.builtDir().resolve(folder).resolve("libnvidia-ml.so.1"));
        assertThat(required)
                .as("functions upstream's plugin calls that %s/libnvidia-ml.so.1 does not export", folder)
                .filteredOn(f -> !exported.contains(f))
                .isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"nvidia", "legacy/nvidia"})
    void exportsEveryFunctionTheHeaderDeclares(String folder) throws Exception {
        Set<String> declared = declaredFunctions();
        assertThat(declared).contains("nvmlDeviceGetMigMode", "nvmlErrorString");
        if (folder.startsWith("legacy/")) {
            // the legacy build stands in for a driver without it (README)
            declared.remove("nvmlDeviceGetMemoryInfo_v2");
        }
        Set<String> exported = exported(MockLibrary.builtDir().resolve(folder).resolve("libnvidia-ml.so.1"));
        assertThat(declared)
                .as("functions hami_nvml.h declares that %s/libnvidia-ml.so.1 does not export", folder)
                .filteredOn(f -> !exported.contains(f))
                .isEmpty();
    }

    /** The symbol names of the list, without comments and blank lines. */
    static List<String> upstreamPluginSymbols() throws IOException {
        try (InputStream in = NvmlMockSymbolsTest.class.getResourceAsStream("upstream-plugin-nvml-symbols.txt")) {
            assertThat(in)
                    .as("upstream-plugin-nvml-symbols.txt on the test class path")
                    .isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .map(l -> l.replaceFirst("#.*", "").strip())
                    .filter(l -> !l.isEmpty())
                    .toList();
        }
    }

    /** The functions hami_nvml.h declares: every {@code name(} after a return type at the start of a line. */
    static Set<String> declaredFunctions() throws IOException {
        Matcher m = Pattern.compile("(?m)^(?:nvmlReturn_t|const char \\*)\\s*(nvml\\w+)\\(")
                .matcher(Files.readString(HEADER));
        Set<String> names = new TreeSet<>();
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    /** Defined dynamic symbols, from {@code nm -D --defined-only}. */
    static Set<String> exported(Path library) throws Exception {
        Process nm = new ProcessBuilder("nm", "-D", "--defined-only", library.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(nm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(nm.waitFor(30, TimeUnit.SECONDS)).as("nm finished").isTrue();
        assertThat(nm.exitValue()).as("nm -D %s: %s", library, output).isZero();
        return output.lines()
                .map(l -> l.trim().split("\\s+"))
                .filter(f -> f.length == 3)
                .map(f -> f[2])
                .collect(Collectors.toCollection(TreeSet::new));
    }
}
