package io.hami.nativebind.elf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LibrarySearchTest {

    /** A new-format ld.so.cache ("glibc-ld.so.cache1.1") holding {@code entries} (name, path) in order. */
    static byte[] cache(List<String[]> entries) {
        ByteArrayOutputStream strings = new ByteArrayOutputStream();
        int base = 48 + 24 * entries.size();
        ByteBuffer b = ByteBuffer.allocate(base).order(ByteOrder.nativeOrder());
        b.put("glibc-ld.so.cache1.1".getBytes(StandardCharsets.US_ASCII));
        b.putInt(20, entries.size());
        for (int i = 0; i < entries.size(); i++) {
            int at = 48 + 24 * i;
            b.putInt(at, 0x0303);
            b.putInt(at + 4, base + strings.size());
            strings.writeBytes((entries.get(i)[0] + "\0").getBytes(StandardCharsets.UTF_8));
            b.putInt(at + 8, base + strings.size());
            strings.writeBytes((entries.get(i)[1] + "\0").getBytes(StandardCharsets.UTF_8));
        }
        b.putInt(24, strings.size());
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.writeBytes(b.array());
        all.writeBytes(strings.toByteArray());
        return all.toByteArray();
    }

    @Test
    void theLinkersOrderLibraryPathThenCacheThenSystemFolders() {
        byte[] cache = cache(List.of(
                new String[] {"libother.so", "/opt/other/libother.so"},
                new String[] {"libnvidia-ml.so.1", "/usr/lib/i386-linux-gnu/libnvidia-ml.so.1"},
                new String[] {"libnvidia-ml.so.1", "/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1"}));
        List<Path> candidates = LibrarySearch.candidates(
                "libnvidia-ml.so.1",
                Map.of("LD_LIBRARY_PATH", "/a::/b:$ORIGIN/c"),
                cache,
                Optional.of("x86_64-linux-gnu"));
        assertThat(candidates)
                .containsExactly(
                        Path.of("/a/libnvidia-ml.so.1"),
                        Path.of("libnvidia-ml.so.1").toAbsolutePath(),
                        Path.of("/b/libnvidia-ml.so.1"),
                        Path.of("/usr/lib/i386-linux-gnu/libnvidia-ml.so.1"),
                        Path.of("/usr/lib/x86_64-linux-gnu/libnvidia-ml.so.1"),
                        Path.of("/lib/x86_64-linux-gnu/libnvidia-ml.so.1"),
                        Path.of("/lib64/libnvidia-ml.so.1"),
                        Path.of("/usr/lib64/libnvidia-ml.so.1"),
                        Path.of("/lib/libnvidia-ml.so.1"),
                        Path.of("/usr/lib/libnvidia-ml.so.1"));
    }

    @Test
    void theOldCacheFormatIsSkippedToTheNewOneAndBadBytesGiveNothing() {
        byte[] fresh = cache(List.<String[]>of(new String[] {"libcndev.so", "/usr/lib/libcndev.so"}));
        int oldEntries = 3;
        int newAt = (16 + 12 * oldEntries + 7) & ~7;
        ByteBuffer combined = ByteBuffer.allocate(newAt + fresh.length).order(ByteOrder.nativeOrder());
        combined.put("ld.so-1.7.0".getBytes(StandardCharsets.US_ASCII)).putInt(12, oldEntries);
        combined.put(newAt, fresh);
        assertThat(LibrarySearch.cached(combined.array(), "libcndev.so")).containsExactly("/usr/lib/libcndev.so");
        assertThat(LibrarySearch.cached(fresh, "libmtml.so")).isEmpty();
        assertThat(LibrarySearch.cached(new byte[0], "libcndev.so")).isEmpty();
        assertThat(LibrarySearch.cached(
                        "glibc-ld.so.cache1.1 and then nothing".getBytes(StandardCharsets.US_ASCII), "libcndev.so"))
                .isEmpty();
        byte[] lying = fresh.clone();
        ByteBuffer.wrap(lying).order(ByteOrder.nativeOrder()).putInt(20, 1_000_000);
        assertThat(LibrarySearch.cached(lying, "libcndev.so")).isEmpty();
    }

    @Test
    void thisMachinesCacheFindsLibc() throws IOException {
        Path cache = Path.of("/etc/ld.so.cache");
        assumeTrue(Files.isRegularFile(cache), "no /etc/ld.so.cache on this machine");
        assertThat(LibrarySearch.cached(Files.readAllBytes(cache), "libc.so.6"))
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p).endsWith("/libc.so.6"));
    }
}
