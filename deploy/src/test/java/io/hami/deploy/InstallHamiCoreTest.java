package io.hami.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/docker/install-hami-core.sh}, which the NVIDIA DaemonSet's init container runs: it puts
 * {@code libvgpu.so} and {@code ld.so.preload} where the plugin's Allocate mounts them from, and never rewrites
 * a library that running containers have mapped unless it changed, and then only with a rename.
 */
class InstallHamiCoreTest {
    private static final Path SCRIPT = DockerfilesTest.DOCKER.resolve("install-hami-core.sh");

    private record Result(int exitCode, String output) {}

    private static Result install(Path source, Path host) throws Exception {
        Process p = new ProcessBuilder("sh", SCRIPT.toString(), source.toString(), host.toString())
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), output);
    }

    private static Object inode(Path file) throws Exception {
        return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    }

    @Test
    void installsTheLibraryAndAPreloadNamingItsContainerPath(@TempDir Path dir) throws Exception {
        Path source = Files.createDirectories(dir.resolve("image"));
        Files.writeString(source.resolve("libvgpu.so"), "core v1");
        Path host = dir.resolve("usr/local/vgpu");

        Result r = install(source, host);

        assertThat(r.exitCode()).as(r.output()).isZero();
        assertThat(Files.readString(host.resolve("libvgpu.so"))).isEqualTo("core v1");
        // The plugin mounts this file at /etc/ld.so.preload and libvgpu.so at /usr/local/vgpu/libvgpu.so.
        assertThat(Files.readString(host.resolve("ld.so.preload"))).isEqualTo("/usr/local/vgpu/libvgpu.so\n");
        try (var files = Files.list(host)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder("libvgpu.so", "ld.so.preload");
        }
    }

    @Test
    void leavesAnIdenticalLibraryAloneAndReplacesAChangedOneByRename(@TempDir Path dir) throws Exception {
        Path source = Files.createDirectories(dir.resolve("image"));
        Files.writeString(source.resolve("libvgpu.so"), "core v1");
        Path host = dir.resolve("vgpu");
        assertThat(install(source, host).exitCode()).isZero();
        Object first = inode(host.resolve("libvgpu.so"));

        Result same = install(source, host);
        assertThat(same.exitCode()).isZero();
        assertThat(same.output()).doesNotContain("installed");
        assertThat(inode(host.resolve("libvgpu.so"))).isEqualTo(first);

        Path mappedByAContainer = dir.resolve("held");
        Files.createLink(mappedByAContainer, host.resolve("libvgpu.so"));
        Files.writeString(source.resolve("libvgpu.so"), "core v2");
        Result changed = install(source, host);
        assertThat(changed.exitCode()).isZero();
        assertThat(changed.output()).contains("installed " + host.resolve("libvgpu.so"));
        assertThat(Files.readString(host.resolve("libvgpu.so"))).isEqualTo("core v2");
        assertThat(inode(host.resolve("libvgpu.so"))).isNotEqualTo(first);
        assertThat(Files.readString(mappedByAContainer))
                .as("the old file is untouched")
                .isEqualTo("core v1");
    }

    @Test
    void aMissingLibraryIsAnErrorThatNamesIt(@TempDir Path dir) throws Exception {
        Result r = install(Files.createDirectories(dir.resolve("empty")), dir.resolve("vgpu"));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.output()).contains(dir.resolve("empty/libvgpu.so") + " is missing");
        assertThat(dir.resolve("vgpu")).doesNotExist();
    }
}
