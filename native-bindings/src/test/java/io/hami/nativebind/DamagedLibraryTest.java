package io.hami.nativebind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hami.nativebind.cndev.Cndev;
import io.hami.nativebind.elf.ElfDamage;
import io.hami.nativebind.elf.ElfMachine;
import io.hami.nativebind.hydmi.Hydmi;
import io.hami.nativebind.mtml.Mtml;
import io.hami.nativebind.nvml.Nvml;
import io.hami.nativebind.rocm.RocmSmi;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 26: a damaged vendor library is a {@link LibraryDamagedException} saying what is wrong and where, found
 * before the dynamic linker sees the file. A truncated one used to fault in the loader (SIGBUS: exit 134 and an
 * hs_err file), so that case runs in a child JVM, where a regression fails this test instead of killing the fork.
 */
class DamagedLibraryTest {
    private static final String NVML_FILE = "libnvidia-ml.so.1";
    private static final String DEVICES = "{\"devices\": [{\"uuid\": \"GPU-a\"}, {\"uuid\": \"GPU-b\"}]}";

    @TempDir
    Path dir;

    /** One wrapper, the mock folder and file it loads, and the first function it calls. */
    record Vendor(String name, String mockDir, String file, Function<Path, AutoCloseable> open, String first) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Vendor> vendors() {
        return Stream.of(
                new Vendor("NVML", "nvidia", NVML_FILE, Nvml::open, "nvmlInit_v2"),
                new Vendor("CNDev", "cambricon", "libcndev.so", Cndev::open, "cndevInit"),
                new Vendor("MTML", "mthreads", "libmtml.so.2", Mtml::open, "mtmlLibraryInit"),
                new Vendor("ROCm SMI", "hygon", "librocm_smi64.so.2", RocmSmi::open, "rsmi_init"),
                new Vendor(
                        "hydmi",
                        "hygon",
                        "libhydmi.so.1",
                        p -> {
                            Hydmi.open(p);
                            return () -> {};
                        },
                        "dmiGetDeviceCount"));
    }

    private static int otherMachine() {
        return ElfMachine.host().orElse(ElfMachine.X86_64) == ElfMachine.X86_64
                ? ElfMachine.AARCH64
                : ElfMachine.X86_64;
    }

    @ParameterizedTest
    @MethodSource("vendors")
    void eachWrapperNamesWhatIsWrongWithItsLibrary(Vendor v) {
        byte[] built =
                DamagedCopies.bytes(MockLibrary.builtDir().resolve(v.mockDir).resolve(v.file));
        int host = ElfMachine.host().orElseThrow();
        Map<String, byte[]> copies = Map.of(
                "empty", new byte[0],
                "garbage", DamagedCopies.garbage(built),
                "wrong-arch", DamagedCopies.withMachine(built, otherMachine()),
                "no-init", DamagedCopies.withoutSymbol(built, v.first));
        Map<String, String> expected = Map.of(
                "empty",
                "is empty (0 bytes)",
                "garbage",
                new ElfDamage.NotElf(hex(DamagedCopies.garbage(built))).describe(),
                "wrong-arch",
                new ElfDamage.WrongMachine(otherMachine(), host).describe(),
                "no-init",
                "lacks the required function " + v.first + " in its dynamic symbol table"
                        + " (not this vendor's library, or a driver too old for it)");
        copies.forEach((kind, bytes) -> {
            Path copy = DamagedCopies.write(dir.resolve(kind).resolve(v.file), bytes);
            assertThatThrownBy(() -> v.open.apply(copy).close())
                    .as(kind)
                    .isInstanceOfSatisfying(LibraryDamagedException.class, e -> {
                        assertThat(e).hasMessage(v.name + " library " + copy + " " + expected.get(kind));
                        assertThat(e.vendor()).isEqualTo(v.name);
                        assertThat(e.location()).isEqualTo(copy.toString());
                        assertThat(e.file()).isEqualTo(copy);
                    });
        });
    }

    private static String hex(byte[] bytes) {
        return java.util.HexFormat.ofDelimiter(" ").formatHex(bytes, 0, 8);
    }

    @Test
    void aDirectoryIsNoLibraryAndAMissingFileIsStillNotFound() throws IOException {
        Path folder = Files.createDirectories(dir.resolve(NVML_FILE));
        assertThatThrownBy(() -> Nvml.open(folder))
                .isInstanceOf(LibraryDamagedException.class)
                .hasMessage("NVML library " + folder + " is not a regular file (a directory)");
        assertThatThrownBy(() -> Nvml.open(dir.resolve("absent").resolve(NVML_FILE)))
                .isInstanceOf(LibraryNotFoundException.class)
                .hasMessageStartingWith("NVML library " + dir.resolve("absent").resolve(NVML_FILE) + " not found: ");
    }

    @Test
    void aLegacyLibraryLacksOnlyWhatItsOlderDriverLacks() {
        Path legacy = MockLibrary.install(dir.resolve("legacy"), "legacy/nvidia", DEVICES, NVML_FILE)
                .path(NVML_FILE);
        assertThatThrownBy(() -> NativeLibrary.open("NVML", legacy, List.of("nvmlDeviceGetMemoryInfo_v2")))
                .isInstanceOfSatisfying(
                        LibraryDamagedException.class,
                        e -> assertThat(e.damage())
                                .isEqualTo(new ElfDamage.MissingSymbols(List.of("nvmlDeviceGetMemoryInfo_v2"))));
        try (Nvml nvml = Nvml.open(legacy)) {
            assertThat(nvml.deviceCount()).isEqualTo(2);
        }
    }

    /** The child: opens NVML by path or by SONAME and prints what happened, one line. */
    public static void main(String[] args) {
        try (Nvml nvml = args[0].equals("path") ? Nvml.open(Path.of(args[1])) : Nvml.open()) {
            System.out.println("OPENED " + nvml.deviceCount());
        } catch (LibraryDamagedException e) {
            System.out.println("DAMAGED " + e.getMessage());
        } catch (LibraryNotFoundException e) {
            System.out.println("NOT FOUND " + e.getMessage());
        }
    }

    /** Output lines of a child JVM run in {@code cwd}, after checking it ended by itself and left no crash dump. */
    private static List<String> child(Path cwd, String libraryPath, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "-cp",
                System.getProperty("java.class.path"),
                DamagedLibraryTest.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder java = new ProcessBuilder(command)
                .directory(Files.createDirectories(cwd).toFile())
                .redirectErrorStream(true);
        if (libraryPath != null) {
            java.environment().put("LD_LIBRARY_PATH", libraryPath);
        }
        Process process = java.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
        try (Stream<Path> files = Files.list(cwd)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("a JVM crash dump: the loader faulted\n" + output)
                    .noneMatch(name -> name.startsWith("hs_err_pid"));
        }
        assertThat(process.exitValue())
                .as("exit code (134 is the loader's SIGBUS)\n" + output)
                .isZero();
        return output.lines().toList();
    }

    @Test
    void aLibraryCutTo20kBIsReportedAndTheJvmLivesOn() throws Exception {
        byte[] built =
                DamagedCopies.bytes(MockLibrary.builtDir().resolve("nvidia").resolve(NVML_FILE));
        Path cut = DamagedCopies.write(
                dir.resolve("cut").resolve(NVML_FILE), DamagedCopies.truncated(built, DamagedCopies.TRUNCATED_SIZE));
        Files.writeString(dir.resolve("cut/devices.json"), DEVICES);
        String truncated = " is truncated: segment \\d+ ends at byte [\\d,]+ but the file has 20,480 bytes";

        assertThat(child(dir.resolve("by-path"), null, "path", cut.toString()))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .matches("DAMAGED NVML library " + java.util.regex.Pattern.quote(cut.toString()) + truncated);
        // By SONAME, as the plugin opens it: the message names the SONAME and the file the search found.
        assertThat(child(dir.resolve("by-soname"), cut.getParent().toString(), "soname"))
                .singleElement(org.assertj.core.api.InstanceOfAssertFactories.STRING)
                .matches("DAMAGED NVML library libnvidia-ml.so.1 \\(" + java.util.regex.Pattern.quote(cut.toString())
                        + "\\)" + truncated);
    }

    @Test
    void theSearchPassesOverAnotherArchitecturesCopyAsTheLinkerDoes() throws Exception {
        byte[] built =
                DamagedCopies.bytes(MockLibrary.builtDir().resolve("nvidia").resolve(NVML_FILE));
        Path foreign = DamagedCopies.write(
                dir.resolve("foreign").resolve(NVML_FILE), DamagedCopies.withMachine(built, otherMachine()));
        Path good = MockLibrary.install(dir.resolve("good"), "nvidia", DEVICES, NVML_FILE)
                .path(NVML_FILE);

        assertThat(child(dir.resolve("both"), foreign.getParent() + ":" + good.getParent(), "soname"))
                .containsExactly("OPENED 2");
        assertThat(child(dir.resolve("foreign-only"), foreign.getParent().toString(), "soname"))
                .containsExactly("DAMAGED NVML library libnvidia-ml.so.1 (" + foreign + ") "
                        + new ElfDamage.WrongMachine(
                                        otherMachine(), ElfMachine.host().orElseThrow())
                                .describe());
    }
}
