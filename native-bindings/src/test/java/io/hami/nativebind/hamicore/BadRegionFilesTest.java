package io.hami.nativebind.hamicore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Files that are not usable regions are skipped with a reason, never thrown or crashed on. */
class BadRegionFilesTest {
    private static final long V1_FILE = 2_008_953;

    @TempDir
    Path dir;

    Path good;

    @BeforeEach
    void writeAGoodVersion1Region() {
        good = dir.resolve("good.cache");
        HamiWorkload.ok(
                "--region",
                good.toString(),
                "--format-version",
                "1",
                "--device",
                "GPU-a:1024:50",
                "--priority",
                "1",
                "--processes",
                "2",
                "--used-mib",
                "10",
                "--once");
        assertThat(good).hasSize(V1_FILE);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 3, 11})
    void aFileShorterThanTheHeaderIsSkipped(long size) throws IOException {
        Path file = truncatedCopy(size);

        assertThat(skipReason(file))
                .isEqualTo(file + ": truncated: " + size + " bytes, smaller than the region header");
    }

    @ParameterizedTest
    @ValueSource(longs = {12, 4096, 1_197_896, 1_197_898, 1_000_000, 2_008_951})
    void aTruncatedVersion1FileIsSkipped(long size) throws IOException {
        Path file = truncatedCopy(size);

        assertThat(skipReason(file)).isEqualTo(file + ": truncated: " + size + " bytes, version 1 needs 2008952");
    }

    @Test
    void aForeignFileIsSkipped() throws IOException {
        Path file = dir.resolve("foreign.cache");
        Files.write(file, new byte[(int) V1_FILE]);

        assertThat(skipReason(file)).contains("not a HAMi-core shared region (initialized_flag 0, expected 19920718");
    }

    @Test
    void anUnknownVersionIsSkipped() throws IOException {
        Path file = copyWithInt(4, 7);

        assertThat(skipReason(file)).endsWith("unsupported version 7.2 (this reader knows 0 and 1)");
    }

    @Test
    void aVersion0FileOfTheWrongSizeIsSkipped() throws IOException {
        Path file = copyWithInt(4, 0);

        assertThat(skipReason(file)).endsWith("truncated: 2008953 bytes, version 0 files are 1197897");
    }

    @Test
    void absurdCountsAreSkipped() throws IOException {
        assertThat(skipReason(copyWithInt(56, 17))).endsWith("device_num 17 outside 0..16");
        assertThat(skipReason(copyWithInt(2_008_896, 5000))).endsWith("proc_num 5000 outside 0..1024");
    }

    @Test
    void aDirectoryOrNothingIsSkipped() throws IOException {
        Path folder = Files.createDirectory(dir.resolve("folder.cache"));

        assertThat(skipReason(folder)).isEqualTo(folder + ": not a regular file");
        assertThat(skipReason(dir.resolve("gone.cache"))).isEqualTo(dir.resolve("gone.cache") + ": no such file");
    }

    @Test
    void writeControlRefusesAFileThatIsNoRegion() throws IOException {
        Path file = copyWithInt(4, 7);

        assertThatThrownBy(() -> SharedRegionFiles.writeControl(file, 1, 1))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unsupported version 7.2");
        assertThat(Files.readAllBytes(file)).isEqualTo(Files.readAllBytes(copyWithInt(4, 7)));
    }

    /** Another thread shrinks and regrows the file while it is read: reads end as Read or Skipped, never throw. */
    @Test
    void aFileTruncatedWhileReadNeverBreaksTheReader() throws Exception {
        byte[] original = Files.readAllBytes(good);
        Path file = dir.resolve("moving.cache");
        Files.write(file, original);
        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> writerErrors = new ArrayList<>();
        Thread shrinker = Thread.ofPlatform().start(() -> {
            long[] sizes = {0, 100, 4096, 65_536, 1_000_000, V1_FILE - 4096};
            int i = 0;
            try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                while (!stop.get()) {
                    raf.setLength(sizes[i++ % sizes.length]);
                    raf.seek(0);
                    raf.write(original);
                    Thread.sleep(1); // leave the reader whole files too
                }
            } catch (IOException e) {
                writerErrors.add(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        int read = 0;
        int skipped = 0;
        List<String> reasons = new ArrayList<>();
        try {
            for (int i = 0; i < 400; i++) {
                switch (SharedRegionFiles.read(file)) {
                    case RegionRead.Read r -> read++;
                    case RegionRead.Skipped s -> {
                        skipped++;
                        reasons.add(s.reason());
                    }
                }
            }
        } finally {
            stop.set(true);
            shrinker.join();
        }
        assertThat(writerErrors).isEmpty();
        assertThat(read + skipped).isEqualTo(400);
        assertThat(reasons).allSatisfy(reason -> assertThat(reason).startsWith(file + ": "));
        System.out.printf(
                "truncation race: %d read, %d skipped; reasons seen: %s%n",
                read,
                skipped,
                reasons.stream()
                        .map(r -> r.replaceAll("[0-9]+", "N"))
                        .distinct()
                        .toList());
    }

    private Path truncatedCopy(long size) throws IOException {
        Path file = dir.resolve("truncated-" + size + ".cache");
        Files.copy(good, file);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
        }
        return file;
    }

    private Path copyWithInt(long offset, int value) throws IOException {
        Path file = dir.resolve("patched-" + offset + "-" + value + ".cache");
        Files.copy(good, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            raf.write(ByteBuffer.allocate(4)
                    .order(ByteOrder.nativeOrder())
                    .putInt(value)
                    .array());
        }
        return file;
    }

    private static String skipReason(Path file) {
        RegionRead read = SharedRegionFiles.read(file);
        assertThat(read).isInstanceOf(RegionRead.Skipped.class);
        return ((RegionRead.Skipped) read).reason();
    }
}
