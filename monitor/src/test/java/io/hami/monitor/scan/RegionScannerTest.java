package io.hami.monitor.scan;

import static org.assertj.core.api.Assertions.assertThat;

import io.hami.monitor.Workload;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scanner keeps regions mapped and folder listings between scans: on files written by {@code hami-workload},
 * each scan still shows what the writer wrote last, a replaced, added, truncated or removed file included.
 */
class RegionScannerTest {
    static final String GPU = "GPU-7d1a5f0e-3c2b-4a1e-9f00-000000000000";
    static final long MIB = 1 << 20;

    @TempDir
    Path hook;

    Path folder;
    RegionScanner scanner;

    @BeforeEach
    void create() {
        folder = hook.resolve("containers/0a0a0a0a-0000-4000-8000-000000000000_main");
        scanner = new RegionScanner(hook);
    }

    @AfterEach
    void close() {
        scanner.close();
    }

    @Test
    void eachScanSeesWhatTheWriterWroteSinceThroughTheKeptMapping() throws Exception {
        write(folder.resolve("a.cache"), 100);
        assertThat(usedOfTheOnlyRegion()).isEqualTo(100 * MIB);

        write(folder.resolve("a.cache"), 300); // in place, as HAMi-core writes

        assertThat(usedOfTheOnlyRegion()).isEqualTo(300 * MIB);
    }

    @Test
    void aFileReplacedByAnotherOfTheSameSizeIsMappedAnew() throws Exception {
        write(folder.resolve("a.cache"), 100);
        assertThat(usedOfTheOnlyRegion()).isEqualTo(100 * MIB);
        Path elsewhere = hook.resolve("other.cache");
        write(elsewhere, 200);

        Files.move(elsewhere, folder.resolve("a.cache"), StandardCopyOption.REPLACE_EXISTING);

        assertThat(usedOfTheOnlyRegion()).as("the old mapping still shows 100").isEqualTo(200 * MIB);
    }

    @Test
    void aFolderIsListedAgainOnlyWhenItsModificationTimeChanged() throws Exception {
        write(folder.resolve("a.cache"), 100);
        FileTime old = FileTime.from(Instant.now().minus(Duration.ofHours(1)));
        Files.setLastModifiedTime(folder, old);
        assertThat(usedOfTheOnlyRegion()).isEqualTo(100 * MIB);

        write(folder.resolve("b.cache"), 200);
        Files.setLastModifiedTime(folder, old); // as if the folder had not changed: its listing is trusted

        assertThat(usedOfTheOnlyRegion()).isEqualTo(100 * MIB);

        Files.setLastModifiedTime(folder, FileTime.from(Instant.now()));

        assertThat(usedOfTheOnlyRegion())
                .as("listed again: the newer file is the container's")
                .isEqualTo(200 * MIB);
    }

    @Test
    void theContainersFolderIsListedAgainOnlyWhenItsModificationTimeChanged() throws Exception {
        write(folder.resolve("a.cache"), 100);
        Path containers = folder.getParent();
        FileTime old = FileTime.from(Instant.now().minus(Duration.ofHours(1)));
        Files.setLastModifiedTime(containers, old);
        assertThat(scanner.scan().folders()).hasSize(1);

        write(hook.resolve("containers/0b0b0b0b-0000-4000-8000-000000000000_main/b.cache"), 200);
        Files.setLastModifiedTime(containers, old);

        assertThat(scanner.scan().folders()).hasSize(1);

        Files.setLastModifiedTime(containers, FileTime.from(Instant.now()));

        assertThat(scanner.scan().regions()).hasSize(2);
    }

    @Test
    void aFileTruncatedInPlaceIsSkippedAndReadAgainOnceWhole() throws Exception {
        Path file = folder.resolve("a.cache");
        write(file, 100);
        byte[] whole = Files.readAllBytes(file);
        assertThat(usedOfTheOnlyRegion()).isEqualTo(100 * MIB);

        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(4096);
        }
        Scan truncated = scanner.scan();

        assertThat(truncated.regions()).isEmpty();
        assertThat(truncated.skipped()).containsOnlyKeys(file);
        assertThat(truncated.skipped().get(file)).contains("truncated: 4096 bytes");

        Files.write(file, whole);

        assertThat(usedOfTheOnlyRegion()).isEqualTo(100 * MIB);
    }

    @Test
    void aRemovedFolderLeavesTheScanAndAnotherOneJoinsIt() throws Exception {
        write(folder.resolve("a.cache"), 100);
        assertThat(scanner.scan().regions()).hasSize(1);
        Path second = hook.resolve("containers/0b0b0b0b-0000-4000-8000-000000000000_main");
        write(second.resolve("b.cache"), 200);

        Files.delete(folder.resolve("a.cache"));
        Files.delete(folder);
        Scan scan = scanner.scan();

        assertThat(scan.folders()).extracting(ContainerFolder::dir).containsExactly(second);
        assertThat(scan.regions())
                .singleElement()
                .satisfies(r -> assertThat(r.file()).isEqualTo(second.resolve("b.cache")));
    }

    private long usedOfTheOnlyRegion() {
        Scan scan = scanner.scan();
        assertThat(scan.skipped()).isEmpty();
        assertThat(scan.regions()).hasSize(1);
        return scan.regions()
                .getFirst()
                .region()
                .processes()
                .getFirst()
                .memory()
                .getFirst()
                .totalBytes();
    }

    private static void write(Path file, int usedMib) throws IOException, InterruptedException {
        Workload.once(
                file,
                "--format-version",
                "1",
                "--device",
                GPU + ":4096:50",
                "--priority",
                "1",
                "--processes",
                "1",
                "--used-mib",
                Integer.toString(usedMib));
    }
}
