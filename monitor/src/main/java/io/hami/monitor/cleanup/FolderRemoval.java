package io.hami.monitor.cleanup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Removes a container folder and what it holds; one already gone is fine. */
public final class FolderRemoval {
    private FolderRemoval() {}

    public static void remove(Path dir) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(dir)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        } catch (NoSuchFileException e) {
            return;
        }
        for (Path p : paths) {
            Files.deleteIfExists(p);
        }
    }
}
