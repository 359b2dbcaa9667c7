package io.hami.nativebind;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A private copy of a mock vendor library (built by hardware-mocks) in a test's own folder, with its own
 * devices.json. Each copy is loaded as a separate library, so tests never share mock state.
 */
public final class MockLibrary {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path dir;
    private final List<String> files;
    private final Map<String, MethodHandle> syncs = new HashMap<>();

    private MockLibrary(Path dir, List<String> files) {
        this.dir = dir;
        this.files = files;
    }

    /** Where hardware-mocks put the built libraries (system property set by the build). */
    public static Path builtDir() {
        String dir = System.getProperty("hami.mocks.dir");
        if (dir == null || !Files.isDirectory(Path.of(dir, "nvidia"))) {
            throw new IllegalStateException("mock libraries not built (hami.mocks.dir=" + dir
                    + "); build them with ./mvnw -pl native-bindings,hardware-mocks -am test");
        }
        return Path.of(dir);
    }

    /** Copies {@code files} from {@code <built>/<vendorDir>} into {@code dir} next to a devices.json. */
    public static MockLibrary install(Path dir, String vendorDir, String devicesJson, String... files) {
        try {
            Files.createDirectories(dir);
            for (String file : files) {
                Files.copy(
                        builtDir().resolve(vendorDir).resolve(file),
                        dir.resolve(file),
                        StandardCopyOption.REPLACE_EXISTING);
            }
            Files.writeString(dir.resolve("devices.json"), devicesJson);
            return new MockLibrary(dir, List.of(files));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path path(String file) {
        return dir.resolve(file);
    }

    /** Replaces control.json (atomically, as the lab must) and makes every copied library re-read it now. */
    public void control(String json) {
        try {
            Path tmp = dir.resolve("control.json.tmp");
            Files.writeString(tmp, json);
            Files.move(tmp, dir.resolve("control.json"), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String file : files) {
            try {
                // returns the reload count; what matters is the forced re-read
                int generation = (int) syncs.computeIfAbsent(file, f -> syncHandle(dir.resolve(f)))
                        .invokeExact();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A state file the mock writes next to devices.json, e.g. cndev-state.json. */
    public JsonNode state(String name) {
        try {
            return JSON.readTree(Files.readString(dir.resolve(name)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The mock-only hami_mock_sync of the library at path; dlopen hands back the copy already loaded. */
    private static MethodHandle syncHandle(Path library) {
        var lookup = SymbolLookup.libraryLookup(library, Arena.global());
        return Linker.nativeLinker()
                .downcallHandle(lookup.findOrThrow("hami_mock_sync"), FunctionDescriptor.of(ValueLayout.JAVA_INT));
    }
}
