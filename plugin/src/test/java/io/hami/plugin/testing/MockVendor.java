package io.hami.plugin.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A private copy of one vendor's mock library (built by hardware-mocks) in a test folder with its own
 * devices.json, so every plugin in a test has its own hardware. Faults go through control.json, replaced
 * atomically; the mock re-reads it within milliseconds on its next call.
 */
public final class MockVendor {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private final Path dir;

    private MockVendor(Path dir) {
        this.dir = dir;
    }

    /** Where hardware-mocks put the built libraries (system property set by the build). */
    public static Path builtDir() {
        String dir = System.getProperty("hami.mocks.dir");
        if (dir == null || !Files.isDirectory(Path.of(dir, "nvidia"))) {
            throw new IllegalStateException("mock libraries not built (hami.mocks.dir=" + dir
                    + "); build them with ./mvnw -q -f hardware-mocks/pom.xml install");
        }
        return Path.of(dir);
    }

    /** Copies the vendor's libraries into {@code dir} with the example devices of hardware-mocks. */
    public static MockVendor install(Path dir, String vendor) {
        try {
            Path built = builtDir().resolve(vendor);
            Files.createDirectories(dir);
            try (var files = Files.list(built)) {
                for (Path f : files.toList()) {
                    String name = f.getFileName().toString();
                    if (name.endsWith(".json") || Files.isSymbolicLink(f)) {
                        continue;
                    }
                    Files.copy(f, dir.resolve(name), StandardCopyOption.REPLACE_EXISTING);
                }
            }
            Files.copy(built.resolve("devices.json"), dir.resolve("devices.json"), StandardCopyOption.REPLACE_EXISTING);
            return new MockVendor(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The folder to pass as the plugin's library path. */
    public Path dir() {
        return dir;
    }

    /** Replaces devices.json, which the library reads when it is opened; {@code this}. */
    public MockVendor devices(String json) {
        try {
            Files.writeString(dir.resolve("devices.json"), json);
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Replaces control.json atomically. */
    public void control(String json) {
        try {
            Path tmp = dir.resolve("control.json.tmp");
            Files.writeString(tmp, json);
            Files.move(tmp, dir.resolve("control.json"), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A state file the mock writes next to its devices (cndev-state.json, hydmi-state.json), parsed. */
    public JsonNode state(String file) {
        try {
            return JSON.readTree(Files.readString(dir.resolve(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
