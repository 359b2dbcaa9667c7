package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
                Stream.concat(
                                spec.path("initContainers").valueStream(),
                                spec.path("containers").valueStream())
                        .filter(c -> c.path("image").asString().startsWith(OUR_IMAGES))
                        .forEach(out::add);
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
            return files.filter(f -> f.getFileName().toString().endsWith(".Dockerfile"))
                    .sorted()
                    .toList();
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
            String linked = linkedRuntime(file);
            var last = file.last();
            assertThat(last.alias()).isEmpty();
            assertThat(last.from())
                    .as(path + " final base")
                    .doesNotContain("jdk")
                    .doesNotContain("jre")
                    .doesNotContain("maven");
            assertThat(last.all("RUN"))
                    .as(path + ": the final stage installs nothing")
                    .isEmpty();
            // The linked runtime lands at /opt/hami/jre: copied alone, or with the distribution it was trained on.
            assertThat(last.all("COPY"))
                    .as(path.toString())
                    .anyMatch(c -> c.arguments().equals("--from=runtime " + linked + " /opt/hami/jre")
                            || linked.equals("/opt/hami/jre")
                                    && c.arguments().equals("--from=runtime /opt/hami /opt/hami"));
            List<String> entrypoint = file.entrypoint();
            assertThat(entrypoint.getFirst()).isEqualTo("/opt/hami/jre/bin/java");
            assertThat(entrypoint).containsSubsequence("-jar", "/opt/hami/hami.jar");
        }
    }

    /** Where the build stage's {@code jlink-runtime.sh DIST OUT} links the runtime. */
    private static String linkedRuntime(Dockerfile file) {
        var runs = file.stage("runtime").all("RUN").stream()
                .filter(r -> r.arguments().startsWith("jlink-runtime.sh "))
                .toList();
        assertThat(runs).as(file.path() + " links with jlink-runtime.sh").hasSize(1);
        return runs.getFirst().arguments().split("\\s+")[2];
    }

    @Test
    void thePluginImagesTrainTheAotCacheTheirEntryPointUsesWithTheRuntimeTheyShip() throws IOException {
        int plugins = 0;
        for (Path path : dockerfiles()) {
            var file = Dockerfile.read(path);
            List<String> entrypoint = file.entrypoint();
            List<String> jvm = entrypoint.subList(1, entrypoint.indexOf("-jar"));
            assertThat(jvm)
                    .as(path + ": the heap is the manifests' (JDK_JAVA_OPTIONS), not the image's")
                    .noneMatch(o -> o.startsWith("-Xmx")
                            || o.startsWith("-XX:MaxRAMPercentage")
                            || o.startsWith("-XX:MaxRAM="));
            if (!subcommand(entrypoint).equals("plugin")) {
                continue;
            }
            plugins++;
            assertThat(jvm).as(path.toString()).contains("-XX:+UseSerialGC", "-XX:AOTCache=/opt/hami/hami.aot");
            List<String> runs = file.stage("runtime").all("RUN").stream()
                    .map(Dockerfile.Instruction::arguments)
                    .toList();
            // Trained by the runtime the image ships, on the distribution at the paths it runs from, after linking.
            assertThat(linkedRuntime(file)).isEqualTo("/opt/hami/jre");
            // Each image trains on its own plugin's start: the backend its entry point runs.
            String backend = entrypoint.get(entrypoint.indexOf("--backend") + 1);
            assertThat(runs)
                    .as(path.toString())
                    .containsSubsequence(
                            "jlink-runtime.sh /opt/hami /opt/hami/jre",
                            "aot-cache.sh --driver-java java --lab /lab /opt/hami/jre/bin/java /opt/hami "
                                    + "/opt/hami/hami.aot --backend " + backend);
            var copies = file.stage("runtime").all("COPY").stream()
                    .map(Dockerfile.Instruction::arguments)
                    .toList();
            assertThat(copies)
                    .as(path.toString())
                    .contains("cli/target/hami.jar /opt/hami/hami.jar", "cli/target/lib/ /opt/hami/lib/")
                    .anyMatch(c -> c.contains("deploy/docker/aot-cache.sh"))
                    .as(path + ": the training's driver has the lab, outside /opt/hami")
                    .contains("lab/cli/target/hami-lab-cli.jar /lab/hami-lab-cli.jar", "lab/cli/target/lib/ /lab/lib/")
                    .noneMatch(c -> c.startsWith("lab/") && c.contains("/opt/hami"));
            var finalCopies = file.last().all("COPY").stream()
                    .map(Dockerfile.Instruction::arguments)
                    .toList();
            assertThat(finalCopies)
                    .as(path + ": the jars come with the cache, from the stage that trained it")
                    .contains("--from=runtime /opt/hami /opt/hami")
                    .noneMatch(c -> c.startsWith("cli/target/"));
        }
        assertThat(plugins).isEqualTo(4);
    }

    @Test
    void whatTheImagesCopyFromTheRepositoryExists() throws IOException {
        for (Path path : dockerfiles()) {
            for (var stage : Dockerfile.read(path).stages()) {
                for (var copy : stage.all("COPY")) {
                    if (copy.arguments().startsWith("--from=")) {
                        continue;
                    }
                    String[] words = copy.arguments().split("\\s+");
                    for (String source : List.of(words).subList(0, words.length - 1)) {
                        assertThat(REPOSITORY.resolve(source))
                                .as(
                                        path + ": COPY " + source
                                                + " (cli/target and lab/cli/target are built by ./mvnw -pl lab/cli -am package)")
                                .exists();
                    }
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
                .filter(c -> subcommand(
                                Dockerfile.read(dockerfileOf(c.path("image").asString()))
                                        .entrypoint())
                        .equals(subcommand))
                .toList();
    }

    private static void assertValidCommandLines(List<JsonNode> containers) {
        assertThat(containers).isNotEmpty();
        for (JsonNode c : containers) {
            List<String> entrypoint =
                    Dockerfile.read(dockerfileOf(c.path("image").asString())).entrypoint();
            var line = new ArrayList<>(
                    entrypoint.subList(entrypoint.indexOf("/opt/hami/hami.jar") + 1, entrypoint.size()));
            c.path("args").valueStream().map(JsonNode::asString).forEach(line::add);
            var parsed = Main.commandLine().parseArgs(line.toArray(String[]::new));
            assertThat(parsed.subcommand()).as(String.join(" ", line)).isNotNull();
            assertThat(parsed.subcommand().commandSpec().name()).isEqualTo(subcommand(entrypoint));
            assertThat(parsed.subcommand().unmatched())
                    .as(String.join(" ", line))
                    .isEmpty();
        }
    }

    @Test
    void theSchedulerEntryPointWithTheManifestsArgumentsIsAValidHamiCommandLine() {
        assertValidCommandLines(containersRunning("scheduler"));
    }

    @Test
    void thePluginEntryPointsWithTheManifestsArgumentsAreValidHamiCommandLines() {
        assertValidCommandLines(containersRunning("plugin"));
    }

    /**
     * Containers that run {@code hami} with a command of their own (the NVIDIA DaemonSet's monitor): the image's
     * entry point with another subcommand, the JVM options alike, and a valid {@code hami} command line.
     */
    @Test
    void aCommandThatRunsHamiIsTheImagesEntryPointWithAnotherSubcommand() {
        var commands = ourContainers().stream()
                .filter(c -> c.path("command")
                        .valueStream()
                        .anyMatch(a -> a.asString().equals("/opt/hami/hami.jar")))
                .toList();
        assertThat(commands)
                .extracting(c -> c.path("name").asString())
                .as("containers that run hami with their own command")
                .containsExactly("monitor");
        for (JsonNode c : commands) {
            List<String> entrypoint =
                    Dockerfile.read(dockerfileOf(c.path("image").asString())).entrypoint();
            List<String> command =
                    c.path("command").valueStream().map(JsonNode::asString).toList();
            int jar = entrypoint.indexOf("/opt/hami/hami.jar") + 1;
            assertThat(command)
                    .as(c.path("name").asString() + ": the entry point of "
                            + c.path("image").asString() + " up to the subcommand")
                    .startsWith(entrypoint.subList(0, jar).toArray(String[]::new));
            var line = new ArrayList<>(command.subList(jar, command.size()));
            c.path("args").valueStream().map(JsonNode::asString).forEach(line::add);
            var parsed = Main.commandLine().parseArgs(line.toArray(String[]::new));
            assertThat(parsed.subcommand()).as(String.join(" ", line)).isNotNull();
            assertThat(parsed.subcommand().commandSpec().name()).isEqualTo("monitor");
            assertThat(parsed.subcommand().unmatched())
                    .as(String.join(" ", line))
                    .isEmpty();
        }
    }

    @Test
    void unknownArgumentsAreRejectedByTheSameCheck() {
        assertThatThrownBy(() -> Main.commandLine().parseArgs("scheduler", "--no-such-flag=1"))
                .isInstanceOf(CommandLine.ParameterException.class);
    }
}
