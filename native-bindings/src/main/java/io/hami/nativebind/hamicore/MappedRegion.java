package io.hami.nativebind.hamicore;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * A shared-region file kept mapped read-only across reads, as upstream's monitor keeps it: each {@link #read()}
 * copies the fields afresh from the same mapping, without opening or mapping the file again. The mapping shows
 * the file it was made of; a caller checks {@link #isStillThe(BasicFileAttributes)} and maps anew when the file
 * was replaced or resized. Not for concurrent use: one reader, then {@link #close()}.
 */
public final class MappedRegion implements RegionOpen, AutoCloseable {
    private final Path file;
    private final Object fileKey;
    private final Arena arena;
    private final MemorySegment segment;

    MappedRegion(Path file, Object fileKey, Arena arena, MemorySegment segment) {
        this.file = file;
        this.fileKey = fileKey;
        this.arena = arena;
        this.segment = segment;
    }

    public Path file() {
        return file;
    }

    /** The mapped size in bytes. */
    public long size() {
        return segment.byteSize();
    }

    /**
     * Whether a file with these attributes (read now at {@link #file()}) is still the one mapped: the same inode
     * and size. A file HAMi-core recreated (new inode) or truncated or extended needs a new mapping.
     */
    public boolean isStillThe(BasicFileAttributes now) {
        return now.size() == segment.byteSize() && Objects.equals(now.fileKey(), fileKey);
    }

    /**
     * Checks magic and version and copies the fields, as {@link SharedRegionFiles#read(Path)} does. Never throws
     * for what is in the file; a file shrunk under the mapping is {@code Skipped} "changed while read".
     */
    public RegionRead read() {
        return SharedRegionFiles.copySafely(file, segment);
    }

    /** Unmaps the file. */
    @Override
    public void close() {
        arena.close();
    }
}
