package io.hami.monitor.scan;

import io.hami.nativebind.hamicore.MappedRegion;
import io.hami.nativebind.hamicore.RegionRead;
import io.hami.nativebind.hamicore.SharedRegionFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads every container's region under {@code <hook>/containers/<podUID>_<container>/*.cache}, the folders the
 * NVIDIA plugin's HAMi-core grant creates. A folder holds one region; when it holds more (HAMi-core names the file
 * afresh per container start) the newest file is the container's. A folder or file that vanishes during the scan
 * (its pod went away) is simply not in the result.
 *
 * <p>Between scans it keeps, as upstream's monitor does, each region mapped (mapped anew when the file's inode or
 * size changed, unmapped when its folder went) and the listings of the containers folder and of each container
 * folder (listed anew when the folder's modification time changed): a scan costs two {@code stat}s and the copy
 * of the fields per container.
 */
public final class RegionScanner implements AutoCloseable {
    /**
     * A listing is trusted while the folder's modification time stays the same only once it was made this long
     * after that time: a file created in the same timestamp tick as the listing would leave the time unchanged.
     */
    private static final long TRUSTED_AFTER_MILLIS = 2_000;

    private final Path containers;
    private final Map<Path, Folder> known = new HashMap<>();
    private FileTime listedModified;
    private long listedAtMillis;

    /** Scans {@code hookPath}/containers ({@code HOOK_PATH}, {@code /usr/local/vgpu} by default). */
    public RegionScanner(Path hookPath) {
        this.containers = hookPath.resolve("containers");
    }

    public Path containersDir() {
        return containers;
    }

    /** One pass; an absent {@code containers} folder is an empty node. */
    public synchronized Scan scan() {
        BasicFileAttributes top = attributes(containers);
        if (top == null || !top.isDirectory()) {
            close();
            return Scan.EMPTY;
        }
        var folders = new ArrayList<ContainerFolder>();
        var regions = new ArrayList<ContainerRegion>();
        var skipped = new HashMap<Path, String>();
        Set<Path> seen = new HashSet<>();
        try {
            for (Path dir : folderPaths(top.lastModifiedTime())) {
                BasicFileAttributes attributes = attributes(dir);
                if (attributes == null || !attributes.isDirectory()) {
                    continue;
                }
                var folder =
                        ContainerFolder.of(dir, attributes.lastModifiedTime().toInstant());
                if (folder.isEmpty()) {
                    continue;
                }
                folders.add(folder.get());
                seen.add(dir);
                Folder state = known.computeIfAbsent(dir, d -> new Folder());
                try {
                    state.read(folder.get(), attributes.lastModifiedTime(), regions, skipped);
                } catch (IOException e) {
                    state.unmap();
                    skipped.put(dir, dir + ": cannot list: " + e.getMessage());
                }
            }
        } finally {
            known.entrySet().removeIf(e -> {
                if (seen.contains(e.getKey())) {
                    return false;
                }
                e.getValue().unmap();
                return true;
            });
        }
        return new Scan(folders, regions, skipped);
    }

    /**
     * The entries of {@code containers}: the folders known from the last scan while its modification time stays
     * the same (a folder made or removed changes it), else a fresh listing.
     */
    private List<Path> folderPaths(FileTime modified) {
        if (isTrusted(modified, listedModified, listedAtMillis)) {
            return List.copyOf(known.keySet());
        }
        long now = System.currentTimeMillis();
        var dirs = new ArrayList<Path>();
        try (DirectoryStream<Path> found = Files.newDirectoryStream(containers)) {
            found.forEach(dirs::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + containers + ": " + e.getMessage(), e);
        }
        listedModified = modified;
        listedAtMillis = now;
        return dirs;
    }

    /**
     * Whether a listing made at {@code listedAt} of a folder then modified at {@code listed} still holds for a
     * folder modified at {@code now}: the same time, and the listing made well after it.
     */
    private static boolean isTrusted(FileTime now, FileTime listed, long listedAt) {
        return now.equals(listed) && listedAt - now.toMillis() >= TRUSTED_AFTER_MILLIS;
    }

    /** Unmaps every region; a later scan maps them again. */
    @Override
    public synchronized void close() {
        known.values().forEach(Folder::unmap);
        known.clear();
        listedModified = null;
    }

    /** What the scanner keeps of one container folder between scans. */
    private static final class Folder {
        private FileTime listedModified;
        private long listedAtMillis;
        private List<Path> caches = List.of();
        private MappedRegion mapped;

        void read(ContainerFolder folder, FileTime modified, List<ContainerRegion> regions, Map<Path, String> skipped)
                throws IOException {
            Path dir = folder.dir();
            if (!isTrusted(modified, listedModified, listedAtMillis)) {
                list(dir, modified);
            }
            Path cache = newest(caches);
            BasicFileAttributes attributes = cache == null ? null : attributes(cache);
            if (cache != null && attributes == null) {
                list(dir, modified); // the listing is stale after all
                cache = newest(caches);
                attributes = cache == null ? null : attributes(cache);
            }
            if (cache == null) {
                unmap();
                return;
            }
            if (mapped != null
                    && !(mapped.file().equals(cache) && attributes != null && mapped.isStillThe(attributes))) {
                unmap();
            }
            if (mapped == null) {
                switch (SharedRegionFiles.open(cache)) {
                    case MappedRegion m -> mapped = m;
                    case RegionRead.Skipped s -> {
                        skipped.put(cache, s.reason());
                        return;
                    }
                }
            }
            switch (mapped.read()) {
                case RegionRead.Read r ->
                    regions.add(new ContainerRegion(cache, folder.podUid(), folder.container(), r.region()));
                case RegionRead.Skipped s -> skipped.put(cache, s.reason());
            }
        }

        private void list(Path dir, FileTime modified) throws IOException {
            long now = System.currentTimeMillis(); // before listing: a file made during it changes the time again
            var files = new ArrayList<Path>(1);
            try (DirectoryStream<Path> found = Files.newDirectoryStream(dir, "*.cache")) {
                found.forEach(files::add);
            } catch (NoSuchFileException e) {
                files.clear();
            }
            caches = List.copyOf(files);
            listedModified = modified;
            listedAtMillis = now;
        }

        void unmap() {
            if (mapped != null) {
                mapped.close();
                mapped = null;
            }
        }
    }

    /** The most recently modified of {@code files}, or null; one file costs no stat. */
    private static Path newest(List<Path> files) {
        if (files.size() <= 1) {
            return files.isEmpty() ? null : files.getFirst();
        }
        Path newest = null;
        FileTime newestTime = null;
        for (Path file : files) {
            BasicFileAttributes attributes = attributes(file);
            if (attributes != null
                    && attributes.isRegularFile()
                    && (newestTime == null || attributes.lastModifiedTime().compareTo(newestTime) > 0)) {
                newest = file;
                newestTime = attributes.lastModifiedTime();
            }
        }
        return newest;
    }

    private static BasicFileAttributes attributes(Path path) {
        try {
            return Files.readAttributes(path, BasicFileAttributes.class);
        } catch (IOException e) {
            return null; // removed meanwhile
        }
    }
}
