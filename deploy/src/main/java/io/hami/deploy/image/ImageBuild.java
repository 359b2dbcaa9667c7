package io.hami.deploy.image;

import com.google.cloud.tools.jib.api.Containerizer;
import com.google.cloud.tools.jib.api.Jib;
import com.google.cloud.tools.jib.api.JibContainerBuilder;
import com.google.cloud.tools.jib.api.TarImage;
import com.google.cloud.tools.jib.api.buildplan.AbsoluteUnixPath;
import com.google.cloud.tools.jib.api.buildplan.FileEntriesLayer;
import com.google.cloud.tools.jib.api.buildplan.FilePermissions;
import com.google.cloud.tools.jib.api.buildplan.ImageFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Builds the five images ({@link ImageSpec#all()}) as OCI archives with jib-core, no container daemon and no
 * registry: {@code deploy/images/base-rootfs.sh} assembles the base from Debian packages, {@code jlink-runtime.sh}
 * links the runtime, {@code aot-cache.sh} trains each plugin image's AOT cache with that runtime at
 * {@code /opt/hami}. Layers, least changing first: base root filesystem, [shell], runtime, {@code lib/}, [HAMi-core],
 * {@code hami.jar} (+ the AOT cache). Jib fixes every time stamp, so the archives are reproducible.
 * Run by the deploy module's build ({@code process-test-classes}; {@code -Dimages.skip} skips it).
 *
 * <p>usage: {@code ImageBuild REPOSITORY OUTPUT_DIR WORK_DIR [LIBVGPU_SO]}
 */
public final class ImageBuild {
    private static final long MIB = 1024 * 1024;
    /**
     * The lab's commands ({@code hami plugin-training}): on the AOT trainings' driver's class path, never in an
     * image. The images hold {@code cli/target} only: {@code hami.jar} and {@code lib/}, which has no lab.
     */
    public static final String LAB_DIST = "lab/cli/target";

    private final Path repository;
    private final Path output;
    private final Path work;
    private final Optional<Path> hamiCore;

    private ImageBuild(Path repository, Path output, Path work, Optional<Path> hamiCore) {
        this.repository = repository;
        this.output = output;
        this.work = work;
        this.hamiCore = hamiCore;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3 || args.length > 4) {
            System.err.println("usage: ImageBuild REPOSITORY OUTPUT_DIR WORK_DIR [LIBVGPU_SO]");
            System.exit(2);
        }
        Optional<Path> hamiCore = args.length == 4 && args[3] != null && !args[3].isBlank()
                ? Optional.of(Path.of(args[3]).toAbsolutePath())
                : Optional.empty();
        new ImageBuild(
                        Path.of(args[0]).toAbsolutePath().normalize(),
                        Path.of(args[1]).toAbsolutePath(),
                        Path.of(args[2]).toAbsolutePath(),
                        hamiCore)
                .run();
    }

    private void run() throws Exception {
        long start = System.nanoTime();
        Path dist = repository.resolve("cli/target");
        if (!Files.isRegularFile(dist.resolve("hami.jar")) || !Files.isDirectory(dist.resolve("lib"))) {
            throw new IllegalStateException(
                    "images: " + dist + " must hold hami.jar and lib/ (./mvnw -pl cli -am package -DskipTests)");
        }
        Path lab = repository.resolve(LAB_DIST);
        if (!Files.isRegularFile(lab.resolve("hami-lab-cli.jar")) || !Files.isDirectory(lab.resolve("lib"))) {
            throw new IllegalStateException("images: " + lab + " must hold hami-lab-cli.jar and lib/, the AOT "
                    + "trainings' driver (./mvnw -pl lab/cli -am package -DskipTests)");
        }
        if (hamiCore.isPresent() && !Files.isRegularFile(hamiCore.get())) {
            throw new IllegalStateException("images: HAMi-core library " + hamiCore.get() + " does not exist");
        }
        Files.createDirectories(output);
        Files.createDirectories(work);
        Path base = Path.of(lastLine(script("deploy/images/base-rootfs.sh")));
        Path home = stage(dist);
        for (ImageSpec spec : ImageSpec.all()) {
            build(spec, base, home);
        }
        System.out.printf(Locale.ROOT, "images: built in %d s%n", (System.nanoTime() - start) / 1_000_000_000L);
    }

    /**
     * {@code WORK/stage/opt/hami}: the distribution, the linked runtime and one AOT cache per plugin, with Jib's time
     * stamp on every file (the cache holds only for the jars and runtime as the image has them). Reused while the
     * distribution is unchanged.
     */
    private Path stage(Path dist) throws IOException, InterruptedException {
        Path stage = work.resolve("stage");
        Path home = stage.resolve("opt/hami");
        Path stampFile = work.resolve("stage.stamp");
        String stamp = stamp(dist);
        if (Files.isDirectory(home)
                && Files.exists(stampFile)
                && Files.readString(stampFile, StandardCharsets.UTF_8).equals(stamp)) {
            System.out.println("images: runtime and AOT caches unchanged: " + home);
            return home;
        }
        Files.deleteIfExists(stampFile);
        deleteTree(stage);
        Files.createDirectories(home.resolve("lib"));
        Files.copy(dist.resolve("hami.jar"), home.resolve("hami.jar"));
        // What hami.jar's manifest names, not whatever lib/ holds: an earlier build's jars stay there.
        for (String jar : classPath(dist.resolve("hami.jar"))) {
            Files.copy(dist.resolve(jar), home.resolve(jar));
        }
        System.out.println("images: linking the runtime (jlink-runtime.sh)");
        script(
                "deploy/docker/jlink-runtime.sh",
                home.toString(),
                home.resolve("jre").toString());
        touchTree(home);
        Path caches = work.resolve("aot");
        Files.createDirectories(caches);
        for (ImageSpec spec : ImageSpec.all()) {
            if (spec.backend().isEmpty()) {
                continue;
            }
            String backend = spec.backend().get();
            long t = System.nanoTime();
            // The runtime must run from /opt/hami, as in the image: a private mount namespace puts the stage there.
            if (!System.getProperty("user.name").equals("root")) {
                throw new IllegalStateException(
                        "images: training the plugins' AOT caches mounts the stage on /opt in a "
                                + "private mount namespace (unshare --mount), which needs root; build as root or with "
                                + "-Dimages.skip");
            }
            run(ImageRun.inPrivateMountNamespace(
                    "mount --bind \"$1\" /opt && shift && exec sh \"$@\"",
                    List.of(
                            stage.resolve("opt").toString(),
                            repository.resolve("deploy/docker/aot-cache.sh").toString(),
                            // The driver (embedded API server, mock hardware, kubelet) runs on this build's JDK
                            // with the lab; the trained plugin on the image's runtime with the image's jars.
                            "--driver-java",
                            Path.of(System.getProperty("java.home"), "bin", "java")
                                    .toString(),
                            "--lab",
                            repository.resolve(LAB_DIST).toString(),
                            ImageSpec.JAVA,
                            ImageSpec.HOME,
                            ImageSpec.AOT_CACHE,
                            "--backend",
                            backend)));
            Files.move(home.resolve("hami.aot"), caches.resolve(backend + ".aot"), StandardCopyOption.REPLACE_EXISTING);
            System.out.printf(
                    Locale.ROOT,
                    "images: AOT cache of the %s plugin trained in %d s%n",
                    backend,
                    (System.nanoTime() - t) / 1_000_000_000L);
        }
        touchTree(caches);
        Files.writeString(stampFile, stamp, StandardCharsets.UTF_8);
        return home;
    }

    private void build(ImageSpec spec, Path base, Path home) throws Exception {
        long t = System.nanoTime();
        var sizes = new long[1];
        JibContainerBuilder image = Jib.fromScratch().setFormat(ImageFormat.OCI);
        image.addFileEntriesLayer(tree("base", base.resolve("rootfs"), "/", sizes));
        if (spec.hamiCore()) {
            image.addFileEntriesLayer(tree("shell", base.resolve("shell"), "/", sizes));
        }
        image.addFileEntriesLayer(tree("runtime", home.resolve("jre"), ImageSpec.HOME + "/jre", sizes));
        image.addFileEntriesLayer(tree("lib", home.resolve("lib"), ImageSpec.HOME + "/lib", sizes));
        if (spec.hamiCore()) {
            Path library = hamiCore.orElseGet(this::standIn);
            Path install = repository.resolve("deploy/docker/install-hami-core.sh");
            sizes[0] += Files.size(library) + Files.size(install);
            image.addFileEntriesLayer(FileEntriesLayer.builder()
                    .setName("hami-core")
                    .addEntry(
                            library, AbsoluteUnixPath.get(ImageSpec.HAMI_CORE), FilePermissions.fromOctalString("755"))
                    .addEntry(
                            install,
                            AbsoluteUnixPath.get(ImageSpec.INSTALL_HAMI_CORE),
                            FilePermissions.fromOctalString("755"))
                    .build());
        }
        var app = FileEntriesLayer.builder().setName("app");
        app.addEntry(home.resolve("hami.jar"), AbsoluteUnixPath.get(ImageSpec.JAR));
        sizes[0] += Files.size(home.resolve("hami.jar"));
        if (spec.backend().isPresent()) {
            Path cache = work.resolve("aot").resolve(spec.backend().get() + ".aot");
            app.addEntry(cache, AbsoluteUnixPath.get(ImageSpec.AOT_CACHE));
            sizes[0] += Files.size(cache);
        }
        image.addFileEntriesLayer(app.build());
        image.setEntrypoint(spec.entrypoint()).setEnvironment(spec.environment());
        image.setLabels(labels(spec, base));
        spec.user().ifPresent(image::setUser);
        Path tar = output.resolve(spec.name() + ".tar");
        image.containerize(Containerizer.to(TarImage.at(tar).named(spec.reference()))
                .setApplicationLayersCache(work.resolve("jib-cache"))
                .setBaseImageLayersCache(work.resolve("jib-base-cache"))
                .setOfflineMode(true)
                .setToolName("hami-java")
                .setToolVersion(ImageSpec.TAG));
        System.out.printf(
                Locale.ROOT,
                "images: %s -> %s: %.1f MiB archive, %.1f MiB uncompressed, %d ms%n",
                spec.reference(),
                repository.relativize(tar),
                Files.size(tar) / (double) MIB,
                sizes[0] / (double) MIB,
                (System.nanoTime() - t) / 1_000_000L);
    }

    /**
     * The spec's labels and {@code io.hami.image.base}: the Debian release of the base root filesystem (its
     * {@code /etc/os-release}) and the packages it was assembled from, with their versions.
     */
    static java.util.Map<String, String> labels(ImageSpec spec, Path base) throws IOException {
        var labels = new java.util.TreeMap<>(spec.labels());
        String release = Files.readAllLines(base.resolve("rootfs/etc/os-release"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.startsWith("PRETTY_NAME="))
                .map(l -> l.substring("PRETTY_NAME=".length()).replace("\"", ""))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("images: the base's os-release has no PRETTY_NAME"));
        String packages = String.join(
                ", ",
                Files.readAllLines(base.resolve("packages.txt"), StandardCharsets.UTF_8).stream()
                        .filter(l -> !l.isBlank())
                        .filter(l -> spec.hamiCore() || !l.startsWith("busybox-static "))
                        .toList());
        labels.put("io.hami.image.base", release + " packages: " + packages);
        return labels;
    }

    /**
     * A layer of the files under {@code source} at {@code target}, with their permission bits (Jib keeps no set-id
     * or sticky bits, and no links: the base root filesystem has none); nonroot's home is nonroot's.
     */
    private static FileEntriesLayer tree(String name, Path source, String target, long[] sizes) throws IOException {
        var layer = FileEntriesLayer.builder().setName(name);
        try (Stream<Path> children = Files.list(source)) {
            for (Path child : children.sorted().toList()) {
                layer.addEntryRecursive(
                        child,
                        AbsoluteUnixPath.get(target).resolve(child.getFileName().toString()),
                        (file, in) -> permissions(file),
                        FileEntriesLayer.DEFAULT_MODIFICATION_TIME_PROVIDER,
                        (file, in) -> in.toString().startsWith("/home/nonroot") ? ImageSpec.NONROOT : "");
            }
        }
        try (Stream<Path> files = Files.walk(source)) {
            sizes[0] += files.filter(Files::isRegularFile)
                    .mapToLong(ImageBuild::size)
                    .sum();
        }
        return layer.build();
    }

    private static FilePermissions permissions(Path file) {
        try {
            return FilePermissions.fromPosixFilePermissions(Files.getPosixFilePermissions(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** HAMi-core is not available to this build: a stand-in file where upstream's libvgpu.so goes. */
    private Path standIn() {
        try {
            Path file = work.resolve("libvgpu.so.stand-in");
            Files.writeString(
                    file,
                    "stand-in for HAMi-core's libvgpu.so (upstream image projecthami/hami, "
                            + "/k8s-vgpu/lib/nvidia/libvgpu.so.<version>): see deploy/README.md\n",
                    StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What the stage depends on: the JDK and the distribution's jars, by their entries' names, sizes and CRCs (not
     * the jars' bytes: packaging again writes new entry times into unchanged jars).
     */
    private static String stamp(Path dist) throws IOException {
        var lines = new ArrayList<String>();
        lines.add(System.getProperty("java.home") + " " + Runtime.version());
        for (Path f : Stream.concat(
                        Stream.of(dist.resolve("hami.jar")),
                        classPath(dist.resolve("hami.jar")).stream().map(dist::resolve))
                .sorted()
                .toList()) {
            lines.add(f.getFileName() + " " + entries(f));
        }
        return String.join("\n", lines) + "\n";
    }

    /**
     * The runtime class path of the distribution whose main jar is {@code jar}: its manifest's {@code Class-Path}
     * ({@code lib/<artifact>-<version>.jar}, as cli's build writes them), in order.
     */
    public static List<String> classPath(Path jar) throws IOException {
        try (var file = new java.util.jar.JarFile(jar.toFile())) {
            var manifest = file.getManifest();
            String classPath = manifest == null
                    ? null
                    : manifest.getMainAttributes().getValue(java.util.jar.Attributes.Name.CLASS_PATH);
            if (classPath == null || classPath.isBlank()) {
                throw new IllegalStateException("images: " + jar + " names no Class-Path in its manifest");
            }
            return List.of(classPath.strip().split("\\s+"));
        }
    }

    private static String entries(Path jar) throws IOException {
        var digest = new StringBuilder();
        try (var zip = new ZipFile(jar.toFile())) {
            zip.stream()
                    .sorted(Comparator.comparing(ZipEntry::getName))
                    .forEach(e -> digest.append(e.getName())
                            .append(' ')
                            .append(e.getSize())
                            .append(' ')
                            .append(Long.toHexString(e.getCrc()))
                            .append(';'));
        }
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(digest.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs a script of the repository with this JDK first on the PATH; returns its standard output. */
    private String script(String path, String... args) throws IOException, InterruptedException {
        var command =
                new ArrayList<String>(List.of("sh", repository.resolve(path).toString()));
        command.addAll(List.of(args));
        return run(command);
    }

    private String run(List<String> command) throws IOException, InterruptedException {
        var builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment()
                .put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv("PATH"));
        Process p = builder.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            System.out.print(out);
            throw new IllegalStateException(
                    "images: " + String.join(" ", command) + " failed (exit " + p.exitValue() + ")");
        }
        System.out.print(out);
        return out;
    }

    private static String lastLine(String output) {
        List<String> lines = output.strip().lines().toList();
        if (lines.isEmpty()) {
            throw new IllegalStateException("images: base-rootfs.sh printed no folder");
        }
        return lines.getLast();
    }

    /** Jib's time stamp on every file and folder, as in the image. */
    private static void touchTree(Path root) throws IOException {
        FileTime time = FileTime.from(FileEntriesLayer.DEFAULT_MODIFICATION_TIME);
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.toList()) {
                Files.setLastModifiedTime(f, time);
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
