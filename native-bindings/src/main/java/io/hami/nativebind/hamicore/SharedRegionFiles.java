package io.hami.nativebind.hamicore;

import io.hami.nativebind.NativeStrings;
import io.hami.nativebind.hamicore.raw.hami_shared_region_h;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and updates HAMi-core's shared-region files ({@code <hook>/containers/<podUID>_<ctr>/*.cache}), version 0
 * or 1 (docs/upstream.md). {@link #read(Path)} maps the file afresh in its own arena and unmaps it before returning;
 * {@link #open(Path)} keeps the mapping for repeated reads (the node monitor's scans). Processes write the file
 * while it is read: values may be torn, which the reader accepts as upstream's monitor does; a file that shrinks
 * under the mapping is reported as skipped, never as a crash.
 */
public final class SharedRegionFiles {
    private static final int MAX_DEVICES = hami_shared_region_h.CUDA_DEVICE_MAX_COUNT();
    private static final int MAX_PROCESSES = hami_shared_region_h.SHARED_REGION_MAX_PROCESS_NUM();

    private SharedRegionFiles() {}

    /**
     * Maps the file read-only, checks size, magic and version, copies the fields out. Never throws for bad
     * files. Processes are the slots {@code 0 .. proc_num-1}, in use or left by a process that exited (pid 0),
     * as HAMi-core keeps them until it compacts the table.
     */
    public static RegionRead read(Path cacheFile) {
        try (Arena arena = Arena.ofConfined()) {
            return switch (map(cacheFile, arena)) {
                case MappedRegion region -> region.read();
                case RegionRead.Skipped s -> s;
            };
        }
    }

    /**
     * Maps the file read-only and keeps it mapped until the {@link MappedRegion} is closed: for a reader that
     * reads it again and again. A file that is no regular file or too short to tell is {@code Skipped}; magic
     * and version are checked on each read, since HAMi-core writes the magic last.
     */
    public static RegionOpen open(Path cacheFile) {
        Arena arena = Arena.ofShared(); // closed by whichever thread closes the region
        RegionOpen opened = map(cacheFile, arena);
        if (opened instanceof RegionRead.Skipped) {
            arena.close();
        }
        return opened;
    }

    private static RegionOpen map(Path cacheFile, Arena arena) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(cacheFile, BasicFileAttributes.class);
        } catch (NoSuchFileException e) {
            return skipped(cacheFile, "no such file");
        } catch (IOException e) {
            return skipped(cacheFile, "cannot read: " + e.getMessage());
        }
        if (!attributes.isRegularFile()) {
            return skipped(cacheFile, "not a regular file");
        }
        long size = -1;
        try (FileChannel channel = FileChannel.open(cacheFile, StandardOpenOption.READ)) {
            size = channel.size();
            if (size < RegionLayout.HEADER_BYTES) {
                return skipped(cacheFile, "truncated: " + size + " bytes, smaller than the region header");
            }
            MemorySegment file = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return new MappedRegion(cacheFile, attributes.fileKey(), arena, file);
        } catch (NoSuchFileException e) {
            return skipped(cacheFile, "no such file");
        } catch (IOException e) {
            return skipped(
                    cacheFile,
                    changed(cacheFile, size) ? changedWhileRead(cacheFile) : "cannot read: " + e.getMessage());
        }
    }

    /** Copies a mapped region; a file truncated under the mapping is skipped, not thrown. */
    static RegionRead copySafely(Path cacheFile, MemorySegment file) {
        try {
            return copy(cacheFile, file);
        } catch (InternalError e) {
            // the JDK's answer to SIGBUS: the file was truncated below a page the reader touched
            return skipped(cacheFile, changedWhileRead(cacheFile));
        }
    }

    /** Writes recent_kernel and utilization_switch in place (mapped read-write), as upstream's monitor does. */
    public static void writeControl(Path cacheFile, int recentKernel, int utilizationSwitch) throws IOException {
        try (FileChannel channel = FileChannel.open(cacheFile, StandardOpenOption.READ, StandardOpenOption.WRITE);
                Arena arena = Arena.ofConfined()) {
            long size = channel.size();
            if (size < RegionLayout.HEADER_BYTES) {
                throw new IOException(cacheFile + ": not a HAMi-core shared region (" + size + " bytes)");
            }
            MemorySegment file = channel.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
            String problem = problem(size, file);
            if (problem != null) {
                throw new IOException(cacheFile + ": " + problem);
            }
            RegionLayout layout = RegionLayout.detect(size, major(file));
            layout.writeControl(file, recentKernel, utilizationSwitch);
        } catch (InternalError e) {
            throw new IOException(cacheFile + ": " + changedWhileRead(cacheFile), e);
        }
    }

    private static RegionRead copy(Path cacheFile, MemorySegment file) {
        String problem = problem(file.byteSize(), file);
        if (problem != null) {
            return skipped(cacheFile, problem);
        }
        RegionLayout layout = RegionLayout.detect(file.byteSize(), major(file));
        long devices = layout.deviceNum(file);
        int processes = layout.procNum(file);
        if (devices < 0 || devices > MAX_DEVICES) {
            return skipped(cacheFile, "device_num " + devices + " outside 0.." + MAX_DEVICES);
        }
        if (processes < 0 || processes > MAX_PROCESSES) {
            return skipped(cacheFile, "proc_num " + processes + " outside 0.." + MAX_PROCESSES);
        }
        List<DeviceShare> shares = new ArrayList<>();
        for (long d = 0; d < devices; d++) {
            shares.add(new DeviceShare(
                    NativeStrings.decode(layout.uuid(file, d)), layout.limit(file, d), layout.smLimit(file, d)));
        }
        List<ProcessUsage> usage = new ArrayList<>();
        for (long p = 0; p < processes; p++) {
            List<DeviceMemory> memory = new ArrayList<>();
            List<Long> sm = new ArrayList<>();
            for (long d = 0; d < devices; d++) {
                memory.add(layout.memory(file, p, d));
                sm.add(layout.smUtil(file, p, d));
            }
            usage.add(new ProcessUsage(layout.pid(file, p), layout.hostPid(file, p), memory, sm));
        }
        return new RegionRead.Read(new SharedRegion(
                layout.majorVersion(file), layout.minorVersion(file), shares, usage, layout.control(file)));
    }

    /** Why a file of this size with these first bytes is no region this reader knows; null when it is one. */
    static String problem(long size, MemorySegment file) {
        int magic = file.get(ValueLayout.JAVA_INT_UNALIGNED, 0);
        if (magic != hami_shared_region_h.SHARED_REGION_MAGIC()) {
            return "not a HAMi-core shared region (initialized_flag " + magic + ", expected "
                    + hami_shared_region_h.SHARED_REGION_MAGIC() + "; not yet initialised or another file)";
        }
        int major = major(file);
        if (RegionLayout.detect(size, major) != null) {
            return null;
        }
        if (major == 1) {
            return "truncated: " + size + " bytes, version 1 needs " + RegionLayout.V1.layout.byteSize();
        }
        if (major == 0) {
            return "truncated: " + size + " bytes, version 0 files are " + RegionLayout.V0.fileSize;
        }
        return "unsupported version " + major + "." + file.get(ValueLayout.JAVA_INT_UNALIGNED, 8)
                + " (this reader knows 0 and 1)";
    }

    private static int major(MemorySegment file) {
        return file.get(ValueLayout.JAVA_INT_UNALIGNED, 4);
    }

    private static boolean changed(Path file, long sizeSeen) {
        try {
            return sizeSeen >= 0 && Files.size(file) != sizeSeen;
        } catch (IOException e) {
            return true;
        }
    }

    private static String changedWhileRead(Path file) {
        try {
            return "changed while read (now " + Files.size(file) + " bytes)";
        } catch (IOException e) {
            return "changed while read (now gone)";
        }
    }

    private static RegionRead.Skipped skipped(Path file, String reason) {
        return new RegionRead.Skipped(file + ": " + reason);
    }
}
