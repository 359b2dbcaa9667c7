package io.hami.nativebind.hamicore.raw;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;

/**
 * Layouts and macros of {@code hami_shared_region.h} (HAMi-core's shared region) in the shape jextract
 * generates. The header declares no functions: the region is a file that processes map, so this class has
 * only the C layouts and the macros as static methods. Keep logic out of this class; it mirrors the header.
 */
public final class hami_shared_region_h {

    private hami_shared_region_h() {}

    public static final ValueLayout.OfByte C_CHAR = (ValueLayout.OfByte) Linker.nativeLinker().canonicalLayouts().get("char");
    public static final ValueLayout.OfInt C_INT = (ValueLayout.OfInt) Linker.nativeLinker().canonicalLayouts().get("int");
    public static final ValueLayout.OfLong C_LONG = (ValueLayout.OfLong) Linker.nativeLinker().canonicalLayouts().get("long");

    /** glibc's {@code sem_t} on LP64: a union of 32 bytes and a long (jextract generates it as a union class). */
    public static final GroupLayout sem_t = MemoryLayout.unionLayout(
            MemoryLayout.sequenceLayout(32, C_CHAR).withName("__size"),
            C_LONG.withName("__align")
    ).withName("sem_t");

    // macros
    public static int SHARED_REGION_MAGIC() { return 19920718; }
    public static int SHARED_REGION_MAJOR_VERSION() { return 1; }
    public static int SHARED_REGION_MINOR_VERSION() { return 2; }
    public static int CUDA_DEVICE_MAX_COUNT() { return 16; }
    public static int SHARED_REGION_MAX_PROCESS_NUM() { return 1024; }
    public static int SHARED_REGION_UUID_SIZE() { return 96; }
    public static int SHARED_REGION_MEMORY_CONTEXT() { return 0; }
    public static int SHARED_REGION_MEMORY_MODULE() { return 1; }
    public static int SHARED_REGION_MEMORY_DATA() { return 2; }
}
