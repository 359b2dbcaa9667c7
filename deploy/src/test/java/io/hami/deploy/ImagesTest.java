package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hami.deploy.image.ImageBuild;
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
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The five OCI archives the deploy module's build writes ({@code io.hami.deploy.image.ImageBuild}), unpacked as a
 * container runtime would and run from their own root filesystems ({@link ImageRun}: chroot in a mount namespace):
 * each is the image its definition says, runs {@code hami --help} as its user on a read-only root, the plugin
 * images with their AOT cache required ({@code -XX:AOTMode=on}); the NVIDIA image's init container installs
 * HAMi-core with the image's own shell; the scheduler image stays under 150 MiB; each holds the production
 * class path and no jar of the test or lab side, carries OCI labels and says which Debian release and packages its
 * base is.
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

    /**
     * Every image holds exactly the production distribution's runtime class path ({@code cli/target}: hami.jar and
     * the jars of its manifest's Class-Path), and no jar of the test or lab side ({@link TestAndLabSide}, derived from the POMs): no lab, no embedded
     * API server, no mock server, no test library. The lab's own jars ({@code lab/cli/target}) are what ./hami adds.
     */
    @Test
    void everyImageHoldsTheProductionClassPathAndNoJarOfTheTestOrLabSide() throws Exception {
        Set<String> forbidden = TestAndLabSide.forbiddenArtifacts(REPOSITORY);
        // The derivation finds what it must: the lab's modules, its mock API server, the test libraries.
        assertThat(forbidden)
                .contains(
                        "hami-lab",
                        "hami-lab-apiserver",
                        "hami-lab-cli",
                        "hami-control-plane",
                        "kubernetes-server-mock",
                        "assertj-core",
                        "awaitility");
        Path dist = REPOSITORY.resolve("cli/target");
        var production = new TreeMap<String, Long>();
        for (String jar : ImageBuild.classPath(dist.resolve("hami.jar"))) {
            production.put(Path.of(jar).getFileName().toString(), Files.size(dist.resolve(jar)));
        }
        assertThat(production.keySet())
                .as("hami.jar's Class-Path: the production class path")
                .noneMatch(jar -> TestAndLabSide.isForbidden(jar, forbidden));
        Map<String, Long> labOnly = new TreeMap<>(jars(REPOSITORY.resolve(ImageBuild.LAB_DIST + "/lib")));
        var productionArtifacts = new TreeSet<String>();
        production.keySet().forEach(jar -> productionArtifacts.add(TestAndLabSide.artifactId(jar)));
        labOnly.keySet().removeIf(jar -> productionArtifacts.contains(TestAndLabSide.artifactId(jar)));
        System.out.printf(
                Locale.ROOT,
                "the lab's jars no image holds (lab/cli/target/lib less cli/target/lib): %d, %.1f MiB%n",
                labOnly.size(),
                labOnly.values().stream().mapToLong(Long::longValue).sum() / (double) MIB);
        for (OciImage image : IMAGES.values()) {
            Path home = image.root().resolve("opt/hami");
            var all = new TreeMap<String, Long>();
            try (Stream<Path> files = Files.walk(home)) {
                // The runtime's own jre/lib/jrt-fs.jar is the JDK's.
                for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".jar"))
                        .filter(f -> !f.startsWith(home.resolve("jre")))
                        .toList()) {
                    all.put(home.relativize(f).toString(), Files.size(f));
                }
            }
            System.out.printf(
                    Locale.ROOT,
                    "%-44s %3d jars, %5.1f MiB%n",
                    image.reference(),
                    all.size(),
                    all.values().stream().mapToLong(Long::longValue).sum() / (double) MIB);
            assertThat(all.keySet())
                    .as(image.reference() + ": jars of the test or lab side")
                    .noneMatch(jar -> TestAndLabSide.isForbidden(
                            Path.of(jar).getFileName().toString(), forbidden));
            var expected = new TreeSet<String>(ImageBuild.classPath(dist.resolve("hami.jar")));
            expected.add("hami.jar");
            assertThat(all.keySet())
                    .as(image.reference() + ": exactly cli/target's hami.jar and its Class-Path")
                    .containsExactlyElementsOf(expected);
        }
    }

    /** The OCI labels, and the base's identity for scanners: Debian's os-release and the packages it holds. */
    @Test
    void everyImageSaysWhatItIsAndWhatItsBaseIs() throws Exception {
        for (ImageSpec spec : ImageSpec.all()) {
            OciImage image = IMAGES.get(spec.name());
            Map<String, String> labels = image.labels();
            assertThat(labels)
                    .as(spec.name())
                    .containsAllEntriesOf(spec.labels())
                    .containsEntry("org.opencontainers.image.title", "hami-java/" + spec.name())
                    .containsEntry("org.opencontainers.image.version", ImageSpec.TAG)
                    .containsKey("org.opencontainers.image.description");
            Path root = image.root();
            assertThat(root.resolve("etc/os-release")).as(spec.name()).content().contains("ID=debian", "VERSION_ID=");
            assertThat(root.resolve("usr/lib/os-release")).hasSameTextualContentAs(root.resolve("etc/os-release"));
            String release = Files.readAllLines(root.resolve("etc/os-release")).stream()
                    .filter(l -> l.startsWith("PRETTY_NAME="))
                    .findFirst()
                    .orElseThrow()
                    .substring("PRETTY_NAME=".length())
                    .replace("\"", "");
            assertThat(labels.get("io.hami.image.base"))
                    .startsWith(release + " packages: ")
                    .contains("libc6 ");
            Path status = root.resolve("var/lib/dpkg/status.d");
            var packages = new TreeSet<String>();
            try (Stream<Path> files = Files.list(status)) {
                files.forEach(f -> packages.add(f.getFileName().toString()));
            }
            assertThat(packages)
                    .as(spec.name())
                    .containsExactlyElementsOf(
                            spec.hamiCore()
                                    ? List.of("busybox-static", "libc6", "libgcc-s1")
                                    : List.of("libc6", "libgcc-s1"));
            for (String p : packages) {
                assertThat(status.resolve(p))
                        .content()
                        .startsWith("Package: " + p + "\n")
                        .contains("Version: ");
            }
        }
    }

    private static Map<String, Long> jars(Path dir) throws java.io.IOException {
        var jars = new TreeMap<String, Long>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().endsWith(".jar"))
                    .toList()) {
                jars.put(f.getFileName().toString(), Files.size(f));
            }
        }
        return jars;
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
