package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The JVM of every container that runs {@code hami}: the image's options plus the manifest's
 * {@code JDK_JAVA_OPTIONS}, given to this machine's JVM as if the container's memory limit were all its memory
 * ({@code -XX:MaxRAM}), choose the collector we mean and a heap that leaves room for the rest of the process.
 */
class JvmOptionsTest {
    /** Metaspace, code cache, thread stacks, GC structures and direct buffers of one hami process, at most. */
    private static final long NON_HEAP = 256L << 20;

    private static final Pattern FLAG = Pattern.compile("^\\s*\\S+\\s+(\\w+)\\s+=\\s+(\\S+)", Pattern.MULTILINE);

    private record Container(String workload, String image, List<String> options, long limit) {}

    private static List<Container> javaContainers() {
        var out = new ArrayList<Container>();
        Manifests manifests = Manifests.load();
        for (String kind : List.of("Deployment", "DaemonSet")) {
            for (JsonNode workload : manifests.ofKind(kind)) {
                for (JsonNode c :
                        workload.path("spec").path("template").path("spec").path("containers")) {
                    String image = c.path("image").asString();
                    if (!image.startsWith("hami-java/")) {
                        continue;
                    }
                    // The image's entry point, or the container's own command when it runs hami with it (the monitor).
                    List<String> entrypoint = c.path("command").isEmpty()
                            ? Dockerfile.read(DockerfilesTest.dockerfileOf(image))
                                    .entrypoint()
                            : c.path("command")
                                    .valueStream()
                                    .map(JsonNode::asString)
                                    .toList();
                    if (!entrypoint.contains("-jar")) {
                        continue;
                    }
                    var options = new ArrayList<>(entrypoint.subList(1, entrypoint.indexOf("-jar")));
                    for (JsonNode env : c.path("env")) {
                        if (env.path("name").asString().equals("JDK_JAVA_OPTIONS")) {
                            options.addAll(
                                    List.of(env.path("value").asString().strip().split("\\s+")));
                        }
                    }
                    out.add(new Container(
                            Manifests.describe(workload) + " container "
                                    + c.path("name").asString(),
                            image,
                            options,
                            bytes(c.path("resources")
                                    .path("limits")
                                    .path("memory")
                                    .asString())));
                }
            }
        }
        return out;
    }

    /** A Kubernetes binary quantity (Mi, Gi). */
    static long bytes(String quantity) {
        Matcher m = Pattern.compile("(\\d+)(Mi|Gi)").matcher(quantity);
        if (!m.matches()) {
            throw new AssertionError("a memory limit in Mi or Gi expected, not '" + quantity + "'");
        }
        return Long.parseLong(m.group(1)) << (m.group(2).equals("Gi") ? 30 : 20);
    }

    /** The final flags of this machine's JVM with {@code options} in a container of {@code limit} bytes. */
    private static Map<String, String> finalFlags(List<String> options, long limit)
            throws IOException, InterruptedException {
        var command = new ArrayList<String>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-XX:MaxRAM=" + limit);
        // The cache is the image's; here only the flags are checked.
        options.stream().filter(o -> !o.startsWith("-XX:AOTCache=")).forEach(command::add);
        command.addAll(List.of("-XX:+PrintFlagsFinal", "-version"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + "\n" + out).isZero();
        var flags = new TreeMap<String, String>();
        Matcher m = FLAG.matcher(out);
        while (m.find()) {
            flags.put(m.group(1), m.group(2));
        }
        return flags;
    }

    @Test
    void everyHamiContainerSetsItsHeapAndItFitsTheMemoryLimitWithRoomForTheRest() throws Exception {
        List<Container> containers = javaContainers();
        assertThat(containers)
                .extracting(Container::image)
                .contains(
                        "hami-java/scheduler:0.1.0",
                        "hami-java/device-plugin-nvidia:0.1.0",
                        "hami-java/device-plugin-hygon:0.1.0");
        assertThat(containers)
                .extracting(Container::workload)
                .contains("DaemonSet hami-system/hami-device-plugin-nvidia container monitor");
        for (Container c : containers) {
            assertThat(c.options())
                    .as(c.workload() + ": the heap is set next to the limit")
                    .anyMatch(o -> o.startsWith("-Xmx"));
            Map<String, String> flags = finalFlags(c.options(), c.limit());
            long heap = Long.parseLong(flags.get("MaxHeapSize"));
            assertThat(heap + NON_HEAP)
                    .as(c.workload() + ": heap " + (heap >> 20) + " MiB + 256 MiB within the limit")
                    .isLessThanOrEqualTo(c.limit());
            assertThat(heap).as(c.workload() + ": a heap of at least 96 MiB").isGreaterThanOrEqualTo(96L << 20);
            boolean plugin = c.image().contains("/device-plugin-");
            // Plugins: one GC thread and the smallest footprint. The scheduler: short pauses at a large index (a
            // 1 GiB container would otherwise get SerialGC from the JVM's ergonomics).
            assertThat(flags.get(plugin ? "UseSerialGC" : "UseG1GC"))
                    .as(c.workload())
                    .isEqualTo("true");
        }
    }

    @Test
    void aHeapAboveTheLimitIsCaught() throws Exception {
        var options = List.of("-Xmx900m");
        long heap = Long.parseLong(finalFlags(options, bytes("1Gi")).get("MaxHeapSize"));
        assertThat(heap + NON_HEAP).isGreaterThan(bytes("1Gi"));
        assertThat(bytes("512Mi")).isEqualTo(512L << 20);
    }
}
