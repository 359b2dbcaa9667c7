package io.hami.nativebind.elf;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SequencedSet;

/**
 * Where glibc's dynamic linker looks for a library name without a slash, in its order: {@code LD_LIBRARY_PATH}
 * (read once at process start, as the linker does), {@code /etc/ld.so.cache}, then the system folders. It leaves out
 * the {@code DT_RPATH}/{@code DT_RUNPATH} of the JVM's own launcher and hardware-capability subfolders: a vendor
 * library is never found there. A name this search does not find is handed to {@code dlopen} unchanged, so the
 * search only adds a check, it never loses a library the linker would find.
 */
public final class LibrarySearch {
    private static final byte[] CACHE_NEW = "glibc-ld.so.cache1.1".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CACHE_OLD = "ld.so-1.7.0".getBytes(StandardCharsets.US_ASCII);
    private static final int CACHE_NEW_HEADER = 48;
    private static final int CACHE_NEW_ENTRY = 24;
    private static final int CACHE_OLD_ENTRY = 12;

    private LibrarySearch() {}

    /** The files named {@code name} that exist, in the linker's order, for this process. */
    public static List<Path> candidates(String name) {
        byte[] cache;
        try {
            cache = Files.readAllBytes(Path.of("/etc/ld.so.cache"));
        } catch (IOException e) {
            cache = new byte[0]; // no cache: the linker then searches the system folders only
        }
        return candidates(name, System.getenv(), cache, multiarch(System.getProperty("os.arch", ""))).stream()
                .filter(Files::exists)
                .toList();
    }

    /** Every place the linker would try, existing or not; pure for tests. */
    static List<Path> candidates(String name, Map<String, String> env, byte[] cache, Optional<String> multiarch) {
        SequencedSet<Path> paths = new LinkedHashSet<>();
        String libraryPath = env.getOrDefault("LD_LIBRARY_PATH", "");
        if (!libraryPath.isEmpty()) {
            for (String dir : libraryPath.split("[:;]", -1)) {
                // An empty element is the current folder; $ORIGIN and friends mean nothing for the JVM's dlopen.
                if (!dir.contains("$")) {
                    add(paths, dir.isEmpty() ? "." : dir, name);
                }
            }
        }
        for (String file : cached(cache, name)) {
            add(paths, file);
        }
        List<String> system = new ArrayList<>();
        multiarch.ifPresent(triple -> {
            system.add("/lib/" + triple);
            system.add("/usr/lib/" + triple);
        });
        system.addAll(List.of("/lib64", "/usr/lib64", "/lib", "/usr/lib"));
        for (String dir : system) {
            add(paths, dir, name);
        }
        return List.copyOf(paths);
    }

    /**
     * The paths {@code /etc/ld.so.cache} gives for {@code name}, in its order (every architecture: the caller skips
     * another architecture's file as the linker does). Bytes that are no cache give none.
     */
    static List<String> cached(byte[] cache, String name) {
        ByteBuffer b = ByteBuffer.wrap(cache).order(ByteOrder.nativeOrder());
        int start;
        if (startsWith(cache, 0, CACHE_NEW)) {
            start = 0;
        } else if (startsWith(cache, 0, CACHE_OLD) && cache.length >= 16) {
            // The old format first, then the new one at the next 8-byte boundary; the linker reads the new one.
            long old = 16 + (long) CACHE_OLD_ENTRY * Integer.toUnsignedLong(b.getInt(12));
            long aligned = (old + 7) & ~7L;
            if (aligned > cache.length || !startsWith(cache, (int) aligned, CACHE_NEW)) {
                return List.of();
            }
            start = (int) aligned;
        } else {
            return List.of();
        }
        if (cache.length - start < CACHE_NEW_HEADER) {
            return List.of();
        }
        long count = Integer.toUnsignedLong(b.getInt(start + 20));
        if (count > (cache.length - start - CACHE_NEW_HEADER) / CACHE_NEW_ENTRY) {
            return List.of();
        }
        List<String> found = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int at = start + CACHE_NEW_HEADER + i * CACHE_NEW_ENTRY;
            // String offsets count from the start of the new-format header.
            Optional<String> key = string(cache, start, Integer.toUnsignedLong(b.getInt(at + 4)));
            if (key.isPresent() && key.get().equals(name)) {
                string(cache, start, Integer.toUnsignedLong(b.getInt(at + 8))).ifPresent(found::add);
            }
        }
        return found;
    }

    /** The Debian/Ubuntu multiarch folder name of this JVM's architecture. */
    static Optional<String> multiarch(String osArch) {
        return switch (osArch) {
            case "amd64", "x86_64" -> Optional.of("x86_64-linux-gnu");
            case "aarch64" -> Optional.of("aarch64-linux-gnu");
            default -> Optional.empty();
        };
    }

    private static Optional<String> string(byte[] cache, int base, long offset) {
        long from = base + offset;
        if (from >= cache.length) {
            return Optional.empty();
        }
        for (int i = (int) from; i < cache.length; i++) {
            if (cache[i] == 0) {
                return Optional.of(new String(cache, (int) from, i - (int) from, StandardCharsets.UTF_8));
            }
        }
        return Optional.empty();
    }

    private static boolean startsWith(byte[] bytes, int at, byte[] prefix) {
        if (at < 0 || bytes.length - at < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static void add(SequencedSet<Path> paths, String dir, String name) {
        try {
            paths.add(Path.of(dir).resolve(name).toAbsolutePath().normalize());
        } catch (InvalidPathException e) {
            // a folder the linker could not open either
        }
    }

    private static void add(SequencedSet<Path> paths, String file) {
        try {
            paths.add(Path.of(file).toAbsolutePath().normalize());
        } catch (InvalidPathException e) {
            // same
        }
    }
}
