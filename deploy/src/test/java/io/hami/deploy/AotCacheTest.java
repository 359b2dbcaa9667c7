package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aot-cache.sh}, which the plugin images' build stage runs, with this machine's JDK on the real distribution
 * ({@code cli/target}) and the images' training (the NVIDIA plugin's own start on mock hardware, {@code hami
 * plugin-training}): the cache it writes is taken by the NVIDIA image's entry point ({@code -XX:AOTMode=on} fails the
 * JVM when it is not), holds the plugin's classes, and a missing or broken cache only costs the time it would have saved.
 */
class AotCacheTest {
    private static final Path DIST = DockerfilesTest.REPOSITORY.resolve("cli/target");
    private static final String JAVA =
            Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    static Path dir;

    private static Path cache;

    private record Run(int exit, String output) {}

    private static Run run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).as(String.join(" ", command)).isTrue();
        return new Run(p.exitValue(), out);
    }

    @BeforeAll
    static void train() throws Exception {
        assertThat(DIST.resolve("hami.jar"))
                .as("the distribution, built by ./mvnw -pl cli -am package")
                .exists();
        cache = dir.resolve("hami.aot");
        Run r = run(List.of(
                "sh",
                DockerfilesTest.DOCKER.resolve("aot-cache.sh").toString(),
                JAVA,
                DIST.toString(),
                cache.toString()));
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(cache).isNotEmptyFile();
    }

    /** The NVIDIA image's entry point up to the subcommand, on this machine, with {@code aot} as its cache. */
    private static List<String> entrypoint(Path aot, String... extra) {
        List<String> image = Dockerfile.read(DockerfilesTest.DOCKER.resolve("device-plugin-nvidia.Dockerfile"))
                .entrypoint();
        assertThat(image).contains("-XX:AOTCache=/opt/hami/hami.aot");
        var command = new ArrayList<String>();
        for (String word : image.subList(0, image.indexOf("plugin"))) {
            command.add(word.replace("/opt/hami/jre/bin/java", JAVA)
                    .replace("/opt/hami/hami.aot", aot.toString())
                    .replace("/opt/hami/hami.jar", DIST.resolve("hami.jar").toString()));
        }
        command.addAll(1, List.of(extra));
        command.add("--help");
        return command;
    }

    @Test
    void theImageEntryPointUsesTheCacheItWasTrainedFor() throws Exception {
        Run r = run(entrypoint(cache, "-XX:AOTMode=on"));
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output())
                .contains("Usage: hami")
                .as("options that differ from the training's disable parts of the cache with an error line")
                .doesNotContain("][error");
    }

    @Test
    void theCacheHoldsThePluginsClasses() throws Exception {
        // With the cache, the plugin's and its libraries' classes come from it, not from the jars.
        Run r = run(entrypoint(cache, "-Xlog:class+load=info"));
        assertThat(r.exit()).as(r.output()).isZero();
        assertThat(r.output())
                .containsPattern("io\\.hami\\.cli\\.Main source: (shared objects file|.*aot)")
                .doesNotContain("io.hami.cli.Main source: file:");
    }

    @Test
    void aMissingOrBrokenCacheIsIgnored() throws Exception {
        Path broken = Files.writeString(dir.resolve("broken.aot"), "not a cache");
        for (Path aot : List.of(dir.resolve("missing.aot"), broken)) {
            Run r = run(entrypoint(aot));
            assertThat(r.exit()).as(r.output()).isZero();
            assertThat(r.output()).contains("Usage: hami");
        }
        // The check above can fail: with the mode that requires the cache, the same JVM refuses to start.
        assertThat(run(entrypoint(broken, "-XX:AOTMode=on")).exit()).isNotZero();
    }
}
