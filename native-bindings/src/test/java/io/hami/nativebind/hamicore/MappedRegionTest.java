package io.hami.nativebind.hamicore;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A region kept mapped across reads: it sees the writer's updates, tells a replaced file, survives truncation. */
class MappedRegionTest {
    @TempDir
    Path dir;

    @Test
    void eachReadSeesWhatTheWriterWroteSinceInTheSameFile() throws IOException {
        Path file = region("a.cache", "10");
        try (MappedRegion mapped = opened(file)) {
            assertThat(totalOfFirstProcess(mapped.read())).isEqualTo(10L << 20);

            HamiWorkload.ok(args(file, "30"));

            assertThat(totalOfFirstProcess(mapped.read())).isEqualTo(30L << 20);
            assertThat(mapped.isStillThe(attributes(file))).isTrue();
        }
    }

    @Test
    void aReplacedOrResizedFileIsNoLongerTheMappedOne() throws IOException {
        Path file = region("a.cache", "10");
        try (MappedRegion mapped = opened(file)) {
            Files.move(region("b.cache", "20"), file, StandardCopyOption.REPLACE_EXISTING);

            assertThat(mapped.isStillThe(attributes(file)))
                    .as("new inode, same size")
                    .isFalse();
            // the mapping still shows the file it was made of, which is why the monitor maps anew
            assertThat(totalOfFirstProcess(mapped.read())).isEqualTo(10L << 20);
        }
        try (MappedRegion mapped = opened(file);
                RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(raf.length() + 1);

            assertThat(mapped.isStillThe(attributes(file)))
                    .as("same inode, new size")
                    .isFalse();
        }
    }

    /** The race of BadRegionFilesTest against one mapping kept for all reads: SIGBUS is a skip, never a crash. */
    @Test
    void aFileTruncatedUnderTheKeptMappingIsSkippedAndReadAgainOnceWhole() throws Exception {
        Path file = region("moving.cache", "10");
        byte[] original = Files.readAllBytes(file);
        try (MappedRegion mapped = opened(file)) {
            AtomicBoolean stop = new AtomicBoolean();
            List<Throwable> writerErrors = new ArrayList<>();
            Thread shrinker = Thread.ofPlatform().start(() -> {
                long[] sizes = {0, 100, 4096, 65_536, 1_000_000, original.length - 4096L};
                int i = 0;
                try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
                    while (!stop.get()) {
                        raf.setLength(sizes[i++ % sizes.length]);
                        raf.seek(0);
                        raf.write(original);
                        Thread.sleep(1); // the writer's pace, not a wait: leave the reader whole files too
                    }
                } catch (IOException e) {
                    writerErrors.add(e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            List<String> reasons = new ArrayList<>();
            int read = 0;
            try {
                for (int i = 0; i < 400; i++) {
                    switch (mapped.read()) {
                        case RegionRead.Read r -> read++;
                        case RegionRead.Skipped s -> reasons.add(s.reason());
                    }
                }
            } finally {
                stop.set(true);
                shrinker.join();
            }
            assertThat(writerErrors).isEmpty();
            assertThat(read + reasons.size()).isEqualTo(400);
            assertThat(reasons).allSatisfy(reason -> assertThat(reason).startsWith(file + ": "));
            // whole again: the same mapping reads it
            assertThat(mapped.read()).isInstanceOf(RegionRead.Read.class);
            System.out.printf(
                    "kept-mapping truncation race: %d read, %d skipped; reasons seen: %s%n",
                    read,
                    reasons.size(),
                    reasons.stream()
                            .map(r -> r.replaceAll("[0-9]+", "N"))
                            .distinct()
                            .toList());
        }
    }

    @Test
    void aFileTooShortToTellIsNotMapped() throws IOException {
        Path file = Files.write(dir.resolve("short.cache"), new byte[5]);

        assertThat(SharedRegionFiles.open(file))
                .isEqualTo(new RegionRead.Skipped(file + ": truncated: 5 bytes, smaller than the region header"));
        assertThat(SharedRegionFiles.open(dir.resolve("gone.cache")))
                .isEqualTo(new RegionRead.Skipped(dir.resolve("gone.cache") + ": no such file"));
    }

    private Path region(String name, String usedMib) {
        Path file = dir.resolve(name);
        HamiWorkload.ok(args(file, usedMib));
        return file;
    }

    private static String[] args(Path file, String usedMib) {
        return new String[] {
            "--region",
            file.toString(),
            "--format-version",
            "1",
            "--device",
            "GPU-a:1024:50",
            "--priority",
            "1",
            "--processes",
            "1",
            "--used-mib",
            usedMib,
            "--once"
        };
    }

    private static MappedRegion opened(Path file) {
        RegionOpen opened = SharedRegionFiles.open(file);
        assertThat(opened).isInstanceOf(MappedRegion.class);
        return (MappedRegion) opened;
    }

    private static long totalOfFirstProcess(RegionRead read) {
        assertThat(read).isInstanceOf(RegionRead.Read.class);
        return ((RegionRead.Read) read)
                .region()
                .processes()
                .getFirst()
                .memory()
                .getFirst()
                .totalBytes();
    }

    private static BasicFileAttributes attributes(Path file) throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class);
    }
}
