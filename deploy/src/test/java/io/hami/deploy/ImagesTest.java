package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hami.deploy.image.ImageRun;
import io.hami.deploy.image.ImageSpec;
import io.hami.deploy.image.OciImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The five OCI archives the deploy module's build writes ({@code io.hami.deploy.image.ImageBuild}), unpacked as a
 * container runtime would and run from their own root filesystems ({@link ImageRun}: chroot in a mount namespace):
 * each is the image its definition says, runs {@code hami --help} as its user on a read-only root, the plugin
 * images with their AOT cache required ({@code -XX:AOTMode=on}); the NVIDIA image's init container installs
 * HAMi-core with the image's own shell; the scheduler image stays under 150 MiB.
 */
class ImagesTest {
    private static final Path REPOSITORY = Manifests.MODULE.getParent();
    private static final long MIB = 1024 * 1024;
    private static final Map<String, OciImage> IMAGES = new LinkedHashMap<>();

    @TempDir
    static Path dir;

    @BeforeAll
    static void unpack() throws Exception {
        assumeTrue(
                Files.exists(OciImage.archive(REPOSITORY, "scheduler")),
                "the images are built by the deploy module's build (process-test-classes); -Dimages.skip skips them");
        for (ImageSpec spec : ImageSpec.all()) {
            IMAGES.put(
                    spec.name(), OciImage.unpack(OciImage.archive(REPOSITORY, spec.name()), dir.resolve(spec.name())));
        }
    }

    @Test
    void eachArchiveIsTheImageItsDefinitionDescribes() {
        assertThat(IMAGES.keySet())
                .containsExactly(
                        "scheduler",
                        "device-plugin-nvidia",
                        "device-plugin-cambricon",
                        "device-plugin-mthreads",
                        "device-plugin-hygon");
        for (ImageSpec spec : ImageSpec.all()) {
            OciImage image = IMAGES.get(spec.name());
            assertThat(image.reference()).isEqualTo("hami-java/" + spec.name() + ":0.1.0");
            assertThat(image.entrypoint()).as(spec.name()).isEqualTo(spec.entrypoint());
            assertThat(image.environment()).as(spec.name()).isEqualTo(spec.environment());
            assertThat(image.user()).as(spec.name()).isEqualTo(spec.user().orElse(""));
            Path root = image.root();
            assertThat(root.resolve("opt/hami/jre/bin/java")).isExecutable();
            assertThat(root.resolve("opt/hami/jre/bin/javac")).doesNotExist();
            assertThat(root.resolve("opt/hami/hami.jar")).isRegularFile();
            assertThat(root.resolve("etc/passwd")).content().contains("nonroot:x:65532:65532:");
            // A shell only where the init container needs one.
            assertThat(Files.exists(root.resolve("bin/sh"))).as(spec.name()).isEqualTo(spec.hamiCore());
            assertThat(Files.exists(root.resolve("opt/hami/hami.aot")))
                    .as(spec.name())
                    .isEqualTo(spec.backend().isPresent());
        }
    }

    /**
     * The Dockerfiles (for builders with a Docker daemon) describe the same images: entry point, environment and
     * user as the build's definitions, so the two cannot drift apart.
     */
    @Test
    void theDockerfilesDescribeTheSameImages() {
        for (ImageSpec spec : ImageSpec.all()) {
            var file = Dockerfile.read(DockerfilesTest.DOCKER.resolve(spec.name() + ".Dockerfile"));
            assertThat(file.entrypoint()).as(spec.name()).isEqualTo(spec.entrypoint());
            var env = new LinkedHashMap<String, String>();
            for (var e : file.last().all("ENV")) {
                for (String pair : e.arguments().split("\\s+")) {
                    int eq = pair.indexOf('=');
                    env.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
            assertThat(env).as(spec.name()).isEqualTo(spec.environment());
            assertThat(file.last().all("USER").stream()
                            .map(Dockerfile.Instruction::arguments)
                            .toList())
                    .as(spec.name())
                    .isEqualTo(spec.user().stream().toList());
        }
    }

    /** The scheduler's Deployment and the plugins' DaemonSets run the images the build makes, and no other. */
    @Test
    void theManifestsRunExactlyTheseImages() {
        var manifests = Manifests.load();
        var used = new java.util.TreeSet<String>();
        for (String kind : List.of("Deployment", "DaemonSet")) {
            for (JsonNode workload : manifests.ofKind(kind)) {
                JsonNode spec = workload.path("spec").path("template").path("spec");
                for (String field : List.of("initContainers", "containers")) {
                    spec.path(field)
                            .valueStream()
                            .map(c -> c.path("image").asString())
                            .filter(i -> i.startsWith("hami-java/"))
                            .forEach(used::add);
                }
            }
        }
        assertThat(used)
                .containsExactlyInAnyOrderElementsOf(
                        ImageSpec.all().stream().map(ImageSpec::reference).toList());
    }

    @Test
    void everyImageRunsHamiHelpFromItsOwnRootFilesystemAsItsUser() throws Exception {
        for (OciImage image : IMAGES.values()) {
            var command = new ArrayList<>(ImageRun.jvm(image));
            boolean plugin = image.entrypoint().contains("plugin");
            if (plugin) {
                // The cache must map: trained on this runtime and these jars at these paths.
                command.add(1, "-XX:AOTMode=on");
            }
            command.add("--help");
            Process p = new ProcessBuilder(ImageRun.command(image, image.user(), true, Map.of(), Map.of(), command))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(p.exitValue()).as(image.reference() + ": " + out).isZero();
            assertThat(out)
                    .as(image.reference())
                    .contains("Usage: hami", "scheduler", "plugin", "monitor", "inspect")
                    .doesNotContain("[aot]");
        }
    }

    @Test
    void theNvidiaInitContainerInstallsHamiCoreWithTheImagesOwnShell() throws Exception {
        OciImage image = IMAGES.get("device-plugin-nvidia");
        JsonNode init = Manifests.load()
                .get("DaemonSet", "hami-device-plugin-nvidia")
                .path("spec")
                .path("template")
                .path("spec")
                .path("initContainers")
                .get(0);
        assertThat(init.path("name").asString()).isEqualTo("install-hami-core");
        List<String> command =
                init.path("command").valueStream().map(JsonNode::asString).toList();
        Path host = Files.createDirectories(dir.resolve("host-vgpu"));
        for (int run = 0; run < 2; run++) {
            Process p = new ProcessBuilder(
                            ImageRun.command(image, "", true, Map.of(host, "/usr/local/vgpu"), Map.of(), command))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            // The second run finds the same library and leaves it alone.
            assertThat(out.contains("installed /usr/local/vgpu/libvgpu.so"))
                    .as(out)
                    .isEqualTo(run == 0);
        }
        assertThat(host.resolve("libvgpu.so"))
                .hasSameBinaryContentAs(image.root().resolve("opt/hami/vgpu/libvgpu.so"));
        assertThat(host.resolve("ld.so.preload")).hasContent("/usr/local/vgpu/libvgpu.so");
    }

    @Test
    void theSchedulerImageStaysUnder150MiB() {
        for (OciImage image : IMAGES.values()) {
            System.out.printf(
                    Locale.ROOT,
                    "%-44s archive %6.1f MiB, layers uncompressed %6.1f MiB %s%n",
                    image.reference(),
                    image.archiveBytes() / (double) MIB,
                    image.uncompressedBytes() / (double) MIB,
                    image.layerBytes().stream()
                            .map(b -> String.format(Locale.ROOT, "%.1f", b / (double) MIB))
                            .toList());
        }
        assertThat(IMAGES.get("scheduler").uncompressedBytes())
                .as("the scheduler image, its layers uncompressed")
                .isLessThan(150 * MIB);
    }
}
