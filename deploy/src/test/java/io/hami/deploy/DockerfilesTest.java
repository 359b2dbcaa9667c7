package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hami.cli.Main;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;

/**
 * The Dockerfiles, read statically (Docker cannot run here): one per image the manifests run, each linking a Java
 * runtime in a JDK build stage and shipping only that runtime, the distribution and its scripts on a plain base;
 * what the entry point runs, with the manifests' arguments, is a valid {@code hami} command line.
 */
class DockerfilesTest {
    static final Path DOCKER = Manifests.MODULE.resolve("docker");
    static final Path REPOSITORY = Manifests.MODULE.getParent();
    private static final String OUR_IMAGES = "hami-java/";

    private static final Manifests MANIFESTS = Manifests.load();

    /** The containers (init containers too) of every workload that run one of our images. */
    private static List<JsonNode> ourContainers() {
        var out = new ArrayList<JsonNode>();
        for (String kind : List.of("Deployment", "DaemonSet", "Job")) {
            for (JsonNode workload : MANIFESTS.ofKind(kind)) {
                JsonNode spec = workload.path("spec").path("template").path("spec");
                Stream.concat(spec.path("initContainers").valueStream(), spec.path("containers").valueStream())
                        .filter(c -> c.path("image").asString().startsWith(OUR_IMAGES)).forEach(out::add);
            }
        }
        return out;
    }

    static Path dockerfileOf(String image) {
        String name = image.substring(OUR_IMAGES.length(), image.lastIndexOf(':'));
        return DOCKER.resolve(name + ".Dockerfile");
    }

    private static List<Path> dockerfiles() throws IOException {
        try (var files = Files.list(DOCKER)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".Dockerfile")).sorted().toList();
        }
    }

    @Test
    void everyImageTheManifestsRunHasItsDockerfileAndEveryDockerfileIsRun() throws IOException {
        Set<Path> used = new TreeSet<>();
        for (JsonNode c : ourContainers()) {
            Path file = dockerfileOf(c.path("image").asString());
            assertThat(file).as("Dockerfile of " + c.path("image").asString()).exists();
            used.add(file);
        }
        assertThat(used).containsExactlyElementsOf(dockerfiles());
    }

    @Test
    void theFinalStageShipsTheLinkedRuntimeWithoutTheJdkOrBuildTools() throws IOException {
        for (Path path : dockerfiles()) {
            var file = Dockerfile.read(path);
            var build = file.stage("runtime");
            assertThat(build.from()).as(path + " build stage").contains("jdk");
            assertThat(build.all("RUN")).as(path + " links with jlink-runtime.sh")
                    .anyMatch(r -> r.arguments().startsWith("jlink-runtime.sh /dist /jre"));
            var last = file.last();
            assertThat(last.alias()).isEmpty();
            assertThat(last.from()).as(path + " final base").doesNotContain("jdk").doesNotContain("jre").doesNotContain("maven");
            assertThat(last.all("RUN")).as(path + ": the final stage installs nothing").isEmpty();
            assertThat(last.all("COPY")).as(path.toString()).anyMatch(c -> c.arguments().equals("--from=runtime /jre /opt/hami/jre"));
            List<String> entrypoint = file.entrypoint();
            assertThat(entrypoint.getFirst()).isEqualTo("/opt/hami/jre/bin/java");
            assertThat(entrypoint).containsSubsequence("-jar", "/opt/hami/hami.jar");
        }
    }

    @Test
    void whatTheImagesCopyFromTheRepositoryExists() throws IOException {
        for (Path path : dockerfiles()) {
            for (var stage : Dockerfile.read(path).stages()) {
                for (var copy : stage.all("COPY")) {
                    if (copy.arguments().startsWith("--from=")) {
                        continue;
                    }
                    String source = copy.arguments().split("\\s+")[0];
                    assertThat(REPOSITORY.resolve(source)).as(path + ": COPY " + source
                            + " (cli/target is built by ./mvnw -pl cli -am package)").exists();
                }
            }
        }
    }

    /** The {@code hami} subcommand an image's entry point runs. */
    private static String subcommand(List<String> entrypoint) {
        return entrypoint.get(entrypoint.indexOf("/opt/hami/hami.jar") + 1);
    }

    /** Every container running {@code hami} (not a script of the image) of the images whose entry point runs {@code subcommand}. */
    private static List<JsonNode> containersRunning(String subcommand) {
        return ourContainers().stream()
                .filter(c -> c.path("command").isEmpty())
                .filter(c -> subcommand(Dockerfile.read(dockerfileOf(c.path("image").asString())).entrypoint()).equals(subcommand))
                .toList();
    }

    private static void assertValidCommandLines(List<JsonNode> containers) {
        assertThat(containers).isNotEmpty();
        for (JsonNode c : containers) {
            List<String> entrypoint = Dockerfile.read(dockerfileOf(c.path("image").asString())).entrypoint();
            var line = new ArrayList<>(entrypoint.subList(entrypoint.indexOf("/opt/hami/hami.jar") + 1, entrypoint.size()));
            c.path("args").valueStream().map(JsonNode::asString).forEach(line::add);
            var parsed = Main.commandLine().parseArgs(line.toArray(String[]::new));
            assertThat(parsed.subcommand()).as(String.join(" ", line)).isNotNull();
            assertThat(parsed.subcommand().commandSpec().name()).isEqualTo(subcommand(entrypoint));
            assertThat(parsed.subcommand().unmatched()).as(String.join(" ", line)).isEmpty();
        }
    }

    @Test
    void theSchedulerEntryPointWithTheManifestsArgumentsIsAValidHamiCommandLine() {
        assertValidCommandLines(containersRunning("scheduler"));
    }

    @Test
    void thePluginEntryPointsWithTheManifestsArgumentsAreValidHamiCommandLines() {
        assumeTrue(Main.commandLine().getSubcommands().containsKey("plugin"),
                "hami plugin is not registered in the command line yet: the device plugin images cannot be checked");
        assertValidCommandLines(containersRunning("plugin"));
    }

    @Test
    void unknownArgumentsAreRejectedByTheSameCheck() {
        assertThatThrownBy(() ->
                Main.commandLine().parseArgs("scheduler", "--no-such-flag=1")).isInstanceOf(CommandLine.ParameterException.class);
    }
}
