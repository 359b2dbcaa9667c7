package io.hami.cli.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./hami} launcher's build progress ({@code build_progress} in the launcher, sourced by bash): a line per
 * module Maven starts, and the build log written as Maven goes, on Maven 3.9's own output.
 */
class LauncherProgressTest {
    /** The repository root: surefire runs in cli/. */
    private static final Path LAUNCHER = Path.of("..", "hami").toAbsolutePath().normalize();

    /** What {@code mvnw -B -ntp -pl cli -am package} prints, cut short: Maven 3.9's reactor header per module. */
    private static final List<String> MAVEN = List.of(
            "[INFO] Scanning for projects...",
            "[INFO] Reactor Build Order:",
            "[INFO] hami-java parent                                                   [pom]",
            "[INFO] -----------------------< io.hami:hami-parent >------------------------",
            "[INFO] Building hami-java parent 0.1.0-SNAPSHOT                          [1/3]",
            "[INFO]   from pom.xml",
            "[INFO] --------------------------------[ pom ]---------------------------------",
            "[INFO] Building hami-java protocol: model, codecs 0.1.0-SNAPSHOT         [2/3]",
            "[WARNING] Building is a word a warning may hold too [1/1]",
            "[INFO] Building hami-java command line (the ./hami distribution) 0.1.0-SNAPSHOT [3/3]",
            "[INFO] BUILD SUCCESS");

    @TempDir
    Path dir;

    @Test
    void eachModuleMavenStartsIsOneLineAndTheLogIsMavensOutput() throws Exception {
        Path log = dir.resolve("build.log");
        Process bash = progress(log);
        try (Writer in = bash.outputWriter(StandardCharsets.UTF_8)) {
            in.write(String.join("\n", MAVEN) + "\n");
        }
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();

        assertThat(bash.exitValue()).isZero();
        assertThat(bash.errorReader().lines().map(l -> l.replaceAll(" \\(\\d+s\\)$", "")))
                .containsExactly(
                        "hami: building module 1 of 3: hami-java parent",
                        "hami: building module 2 of 3: hami-java protocol: model, codecs",
                        "hami: building module 3 of 3: hami-java command line (the ./hami distribution)");
        assertThat(Files.readAllLines(log)).isEqualTo(MAVEN);
    }

    @Test
    void theLogHoldsEveryLineBeforeTheModuleLineIsShown() throws Exception {
        // Maven still running: its output so far must already be in the log when the progress line appears.
        Path log = dir.resolve("build.log");
        Process bash = progress(log);
        try (Writer in = bash.outputWriter(StandardCharsets.UTF_8);
                BufferedReader err =
                        new BufferedReader(new InputStreamReader(bash.getErrorStream(), StandardCharsets.UTF_8))) {
            in.write(MAVEN.get(0) + "\n" + MAVEN.get(4) + "\n");
            in.flush();

            assertThat(err.readLine()).startsWith("hami: building module 1 of 3: hami-java parent");
            assertThat(Files.readAllLines(log)).containsExactly(MAVEN.get(0), MAVEN.get(4));
        }
        assertThat(bash.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    private static Process progress(Path log) throws IOException {
        // $0 is bash, as in an interactive shell: the launcher sees it is sourced and only defines its functions.
        return new ProcessBuilder(
                        "bash",
                        "-c",
                        "source \"$1\" && build_progress \"$2\"",
                        "bash",
                        LAUNCHER.toString(),
                        log.toString())
                .start();
    }
}
